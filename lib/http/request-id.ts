// A request's id: the one a trusted front proxy already gave it when that looks like an id
// (letters, digits, dashes, up to 64), else a new UUID. Used by the proxy, framework-free.
const PLAUSIBLE = /^[A-Za-z0-9._-]{8,64}$/;

export function requestIdFor(incoming: string | null): string {
  return incoming && PLAUSIBLE.test(incoming) ? incoming : crypto.randomUUID();
}
