/** The placeholder the daemon replaces with its token when it serves `index.html`. */
const PLACEHOLDER = '__FCM_TOKEN__';
const META = /<meta\s+name="fcm-token"\s+content="([^"]*)"/;

/** A newer token than the page's own, after the daemon restarted (each start makes a new one). */
let refreshed: string | null = null;

/**
 * The router's per-run token, proving to the daemon that a mutating call comes from its own page (another
 * site cannot read it). Under the Vite dev server the placeholder stays; `VITE_FCM_TOKEN` can stand in.
 */
export function routerToken(doc: Document = document): string {
  if (refreshed) return refreshed;
  const token = doc.querySelector<HTMLMetaElement>('meta[name="fcm-token"]')?.content ?? '';
  if (token !== '' && token !== PLACEHOLDER) return token;
  const devToken: unknown = import.meta.env.VITE_FCM_TOKEN;
  return typeof devToken === 'string' ? devToken : '';
}

/**
 * Re-reads the token from the daemon's page after a reconnect: a restarted daemon has a new one, and an
 * open dashboard (or the desktop window) must keep working without a reload.
 */
export async function refreshRouterToken(): Promise<void> {
  try {
    const response = await fetch('/', { cache: 'no-store' });
    const token = META.exec(await response.text())?.[1];
    if (token && token !== PLACEHOLDER) refreshed = token;
  } catch {
    // Still unreachable: the next reconnect tries again.
  }
}
