import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A view's code did not load (the router did not answer, or no longer has that file). */
export class ViewLoadError extends Error {
  /** The module the browser failed to fetch, when its error named it. */
  readonly url: string | null;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'ViewLoadError';
    this.url = failedModuleUrl(cause);
  }
}

/**
 * The code of a view loaded when first opened, that can be asked for again after a failed load. React's
 * `lazy` keeps a failed load for good, and the browser keeps a failed module fetch for the page's life, so
 * a retry needs a new lazy component over a new address of the module.
 */
export interface ViewLoader {
  /** The component of the latest load; it throws a {@link ViewLoadError} when that load failed. */
  current(): LazyExoticComponent<ComponentType>;
  /** Starts over after `failure`, the error the latest load failed with: the component of the new load. */
  retry(failure: unknown): LazyExoticComponent<ComponentType>;
}

/** The module a failed dynamic import names in its error (Chromium's and Firefox's words do), or null. */
export function failedModuleUrl(failure: unknown): string | null {
  const message = failure instanceof Error ? failure.message : '';
  return /\bhttps?:\/\/[^\s'"]+?\.m?js\b/.exec(message)?.[0] ?? null;
}

/** `url` as a new module for the browser, which then fetches it instead of repeating its failure. */
export function retryUrl(url: string, attempt: number): string {
  const address = new URL(url);
  address.searchParams.set('retry', String(attempt));
  return address.href;
}

/**
 * A {@link ViewLoader} over `load` (a literal `import()`, which the build turns into the view's chunk) and
 * `pick`, which takes the view's component from the module. A retry imports the address the failure
 * named, when it named one; that is the same chunk, with the same exports.
 */
export function viewLoader<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ViewLoader {
  const make = (from: () => Promise<M>) =>
    lazy(() =>
      from().then(
        (module) => ({ default: pick(module) }),
        (error: unknown) => {
          throw new ViewLoadError(error);
        },
      ),
    );
  let view = make(load);
  let retries = 0;
  return {
    current: () => view,
    retry(failure) {
      retries += 1;
      const url = failure instanceof ViewLoadError ? failure.url : null;
      const address = url === null ? null : retryUrl(url, retries);
      view = make(address === null ? load : () => import(/* @vite-ignore */ address) as Promise<M>);
      return view;
    },
  };
}
