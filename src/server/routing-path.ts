/**
 * A request target's path exactly as `new URL(target, 'http://localhost').pathname` spells it,
 * without building a URL when nothing in it would change: an origin-form target (one leading
 * slash) whose path holds only characters a URL keeps as they are, no percent sign (`%2e` can be
 * a dot segment) and no dot segment. Anything else goes through the URL parser.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

/** A request target's path as sent: everything before its query. */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

export function routingPath(target: string): string {
  const path = pathOf(target);
  if (PLAIN_PATH.test(path) && !path.includes('/.')) return path;
  return new URL(target, 'http://localhost').pathname;
}
