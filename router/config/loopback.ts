/**
 * Which addresses only this machine can reach. The server listens on loopback unless told otherwise, and a
 * provider on loopback (Ollama, LM Studio, a llama.cpp or vLLM server) is a server on this machine: a
 * connection it refuses says that server is not running, not that the machine is offline. Pure.
 */
import { isIP } from 'node:net';

/** `::ffff:7f00:1`: 127.0.0.0/8 as the URL parser writes an IPv4-mapped IPv6 address. */
const MAPPED_LOOPBACK_HEX = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;

/**
 * True for an address that only this machine can reach: `localhost`, 127.0.0.0/8 and ::1 (also IPv4-mapped).
 * The wildcard addresses (`0.0.0.0`, `::`) listen on every interface, so they are not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  if (MAPPED_LOOPBACK_HEX.test(name)) return true;
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Hosts a connection to reaches this machine alone: the wildcard addresses, and `*.localhost` (RFC 6761). */
function connectsHere(name: string): boolean {
  return name === '0.0.0.0' || name === '[::]' || name.endsWith('.localhost');
}

/**
 * Whether a provider's base URL is on this machine: its host `isLoopbackHost`, or one a connection to
 * reaches this machine alone (`http://0.0.0.0:11434`, as `OLLAMA_HOST` is often written; `*.localhost`).
 * False for none, or for one that does not parse.
 * @example isLoopbackUrl('http://127.0.0.1:11434/v1') // true
 */
export function isLoopbackUrl(baseUrl: string | null): boolean {
  if (baseUrl === null || !URL.canParse(baseUrl)) return false;
  const { hostname } = new URL(baseUrl);
  return isLoopbackHost(hostname) || connectsHere(hostname.toLowerCase());
}
