/**
 * The proxy the router's calls to providers go through, as the environment names it, the way curl and the
 * agents read it: `HTTPS_PROXY` for https:// providers (`ALL_PROXY`, then `HTTP_PROXY`, when it is unset),
 * `HTTP_PROXY` for http:// ones (`ALL_PROXY` when it is unset), `NO_PROXY` for the hosts reached directly;
 * the lower-case names win. Loopback is always reached directly: a model server on this machine is never
 * behind the office proxy.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

/** Where calls to providers go when the environment names a proxy. */
export interface OutboundProxy {
  /** The proxy for http:// providers; '' for none. */
  http: string;
  /** The proxy for https:// providers; '' for none (`http` then serves them too). */
  https: string;
  /** The hosts reached directly: NO_PROXY's entries, then loopback's. */
  noProxy: string;
}

/** A proxy variable that is not a proxy URL: the router refuses to start rather than go around it. */
export class ProxyEnvError extends Error {
  readonly code = 'FCM_INVALID_PROXY';
  constructor(message: string) {
    super(message);
    this.name = 'ProxyEnvError';
  }
}

const SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks5:']);
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The variable `name` (`HTTP_PROXY`…) as curl reads it: its lower-case spelling first; '' when unset. */
function variable(env: NodeJS.ProcessEnv, name: string): string {
  return (env[name.toLowerCase()] ?? env[name] ?? '').trim();
}

/** NO_PROXY's entries. */
function noProxyEntries(env: NodeJS.ProcessEnv): string[] {
  return variable(env, 'NO_PROXY')
    .split(/[,\s]+/)
    .filter((entry) => entry !== '');
}

/** The hosts calls reach directly, as undici takes them: `env`'s NO_PROXY, then loopback. */
function directHosts(env: NodeJS.ProcessEnv): string {
  return [...noProxyEntries(env), ...LOOPBACK].join(',');
}

/** `raw` as a proxy URL (`host:port` read as http://), or null when it is none the router can use. */
function parsedProxyUrl(raw: string): string | null {
  const text = raw.includes('://') ? raw : `http://${raw}`;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return SCHEMES.has(url.protocol) && url.hostname !== '' ? text : null;
}

/** `name`'s proxy URL, '' when unset; throws naming the variable otherwise. */
function proxyUrl(env: NodeJS.ProcessEnv, name: string): string {
  const raw = variable(env, name);
  if (raw === '') return '';
  const url = parsedProxyUrl(raw);
  // The value is not echoed: it may hold the proxy's password.
  if (url === null)
    throw new ProxyEnvError(
      `${name} is not a proxy URL: set it as http://host:port (https://, socks5:// also work), or unset it`,
    );
  return url;
}

/**
 * The proxy `env` names for calls to providers, or null when it names none (they go directly).
 * Throws `ProxyEnvError` naming a variable whose value is not a proxy URL.
 */
export function readOutboundProxy(env: NodeJS.ProcessEnv): OutboundProxy | null {
  // ALL_PROXY serves both schemes where their own variable is unset, as curl reads it.
  const all = proxyUrl(env, 'ALL_PROXY');
  const http = proxyUrl(env, 'HTTP_PROXY') || all;
  const https = proxyUrl(env, 'HTTPS_PROXY') || all;
  if (http === '' && https === '') return null;
  return { http, https, noProxy: directHosts(env) };
}

/**
 * Where calls to providers go when the system's proxy is `url` and `env` names none: https:// providers
 * through it (http:// ones are model servers on the machine or the network, reached directly), `env`'s
 * NO_PROXY and loopback directly; null (`url` null or '') for directly. Throws `ProxyEnvError` when `url`
 * is not a proxy URL, without echoing it.
 */
export function systemOutboundProxy(env: NodeJS.ProcessEnv, url: string | null): OutboundProxy | null {
  const raw = (url ?? '').trim();
  if (raw === '') return null;
  const https = parsedProxyUrl(raw);
  if (https === null)
    throw new ProxyEnvError(
      'the system proxy is not a proxy URL: the router takes http://host:port, https:// or socks5://',
    );
  return { http: '', https, noProxy: directHosts(env) };
}

/** Whether two proxies send every call the same way. */
export function sameProxy(a: OutboundProxy | null, b: OutboundProxy | null): boolean {
  if (a === null || b === null) return a === b;
  return a.http === b.http && a.https === b.https && a.noProxy === b.noProxy;
}

/** Whether a NO_PROXY entry covers 127.0.0.1: `*`, the address (with any port) or a 127.x CIDR. */
function coversLoopback(entry: string): boolean {
  return (
    entry === '*' ||
    entry.replace(/:\d+$/, '') === '127.0.0.1' ||
    /^127\.0\.0\.0\/([89]|[12]\d|3[0-2])$/.test(entry)
  );
}

/**
 * A warning for the daemon's log when agents started with `env` may send their requests for the router
 * (http://127.0.0.1) to the proxy, which cannot reach this machine: HTTP_PROXY is set and NO_PROXY does not
 * cover 127.0.0.1. Null when they would reach it directly.
 */
export function agentProxyWarning(env: NodeJS.ProcessEnv): string | null {
  if (variable(env, 'HTTP_PROXY') === '' || noProxyEntries(env).some(coversLoopback)) return null;
  return 'HTTP_PROXY is set and NO_PROXY does not name 127.0.0.1: an agent started with this environment may send its requests for this router to the proxy, which cannot reach it; add 127.0.0.1 to NO_PROXY';
}

/** A proxy URL as logs may show it: scheme, host and port, never its user or password. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/** One line on where calls to providers go, for the daemon's log. */
export function proxyLine(proxy: OutboundProxy): string {
  const via =
    proxy.https === '' || proxy.https === proxy.http
      ? `calls to providers go through the proxy ${shown(proxy.http || proxy.https)}`
      : `calls to https:// providers go through the proxy ${shown(proxy.https)}, http:// ones ${
          proxy.http === '' ? 'directly' : `through ${shown(proxy.http)}`
        }`;
  return `${via}; not for ${proxy.noProxy.split(',').join(', ')}`;
}

/**
 * The dispatcher of one provider's calls: a keep-alive pool with `options`, through the proxy when there
 * is one (the host is matched against `noProxy` as each call is made).
 */
export function outboundDispatcher(proxy: OutboundProxy | null, options: Agent.Options): Dispatcher {
  if (proxy === null) return new Agent(options);
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy: proxy.http,
    httpsProxy: proxy.https || proxy.http,
    noProxy: proxy.noProxy,
  });
}

/** SOCKS5 refusals: no method the proxy accepts, credentials it rejects, a target its rules forbid. */
const SOCKS_REFUSALS = new Set([
  'UND_ERR_SOCKS5_AUTH_REJECTED',
  'UND_ERR_SOCKS5_AUTH_FAILED',
  'UND_ERR_SOCKS5_REPLY_2',
]);

/**
 * Whether a call's error is the proxy refusing it: an HTTP proxy's 407 (credentials) or 403 (its policy)
 * to the tunnel, or a SOCKS5 proxy's refusal. That is the proxy's set-up, never the provider's health. A
 * proxy that could not reach the provider (its 502, 504) stays a network error of the provider's.
 */
export function isProxyRefusal(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKS_REFUSALS.has(code)) return true;
  // undici names the proxy's status only in the message of the error it gives the request.
  return code === 'UND_ERR_ABORTED' && /^Proxy response \((407|403)\) !== 200/.test(error.message);
}
