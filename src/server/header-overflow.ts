/**
 * Node counts the request target and the header fields against one budget (maxHeaderSize) and
 * reports HPE_HEADER_OVERFLOW for either. These decide which limit a refused request broke, from
 * the packet node was parsing when it gave up: 414 for the request target, 431 for the headers.
 */

/** A request line's start: a method, one space, and the start of a request target. */
const REQUEST_LINE = /^[A-Z]+ (?=[/*]|https?:)/;

/** The request target, when `text` starts with a request line (blank lines before it are allowed). */
function requestTargetAtStart(text: string): string | null {
  const line = text.replace(/^(\r?\n)+/, '');
  const method = REQUEST_LINE.exec(line);
  if (!method) return null;
  return /^[^ \r\n]*/.exec(line.slice(method[0].length))?.[0] ?? '';
}

/**
 * 414 or 431 for an HPE_HEADER_OVERFLOW. `bytesParsed` is where in `packet` node stopped.
 *
 * When the packet starts with the request line, its target is measured. Otherwise the line node
 * stopped in decides: a request line means the target ran over, anything else a header. When the
 * packet holds only the middle of a line (a request sent in small pieces), node stopped at the end
 * of a target when a space follows, at the end of a header when a line break or colon follows;
 * at the end of the packet, white space in it marks a header (a request target has none).
 */
export function headerOverflowStatus(packet: Buffer | undefined, bytesParsed: number | undefined, maxUrlLength: number): 414 | 431 {
  if (packet === undefined || packet.length === 0) return 431;
  const text = packet.toString('latin1');
  const end = typeof bytesParsed === 'number' && bytesParsed >= 0 && bytesParsed <= text.length ? bytesParsed : text.length;
  const target = requestTargetAtStart(text);
  if (target !== null && target.length > maxUrlLength) return 414;
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  if (lineStart > 0 || target !== null) return requestTargetAtStart(text.slice(lineStart)) === null ? 431 : 414;
  const next = text[end];
  if (next === ' ') return 414;
  if (next !== undefined) return 431;
  return /[ \t]/.test(text.slice(0, end)) ? 431 : 414;
}

/** The bytes node counts against maxHeaderSize for the header fields alone: names and values. */
export function headerBytes(rawHeaders: readonly string[]): number {
  let total = 0;
  for (const item of rawHeaders) total += item.length;
  return total;
}
