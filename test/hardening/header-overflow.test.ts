import { describe, expect, it } from 'vitest';
import { headerBytes, headerOverflowStatus } from '../../src/server/client-errors.js';

const MAX_URL = 100;
const packet = (text: string) => Buffer.from(text, 'latin1');
/** The status for a packet in which node stopped at `stop` (its length when omitted). */
const statusOf = (text: string, stop?: number) => headerOverflowStatus(packet(text), stop ?? text.length, MAX_URL);

describe('which limit an HPE_HEADER_OVERFLOW broke', () => {
  it('is the request target when the packet starts with a request line whose target is too long', () => {
    const text = `GET /${'a'.repeat(300)} HTTP/1.1\r\nhost: x\r\n\r\n`;
    expect(statusOf(text, 4 + 301)).toBe(414);
    // Even when node stopped in a header: the target is over its own limit.
    expect(statusOf(`GET /${'a'.repeat(150)} HTTP/1.1\r\nx-big: ${'b'.repeat(400)}`)).toBe(414);
    // A target cut off by the end of the packet.
    expect(statusOf(`POST /${'a'.repeat(300)}`)).toBe(414);
    // Blank lines before a request are allowed by HTTP/1.1.
    expect(statusOf(`\r\nGET /${'a'.repeat(300)}`)).toBe(414);
  });

  it('is the headers when the request line is short and node stopped in a header', () => {
    expect(statusOf(`GET /ok HTTP/1.1\r\nhost: x\r\nx-big: ${'b'.repeat(400)}\r\n\r\n`, 36 + 400)).toBe(431);
    expect(statusOf(`GET /ok HTTP/1.1\r\nx-big: ${'b'.repeat(400)}`)).toBe(431);
  });

  it('judges a packet from the middle of a request by the line node stopped in', () => {
    expect(statusOf(`aaaa\r\nx-big: ${'b'.repeat(400)}`)).toBe(431);
    expect(statusOf(`${'b'.repeat(50)}\r\n\r\nGET /${'a'.repeat(300)}`)).toBe(414);
  });

  it('judges a packet holding only the middle of a line by what follows where node stopped', () => {
    const target = 'a'.repeat(500);
    expect(statusOf(`${target} HTTP/1.1\r\nhost: x\r\n\r\n`, 500)).toBe(414);
    expect(statusOf(`${'b'.repeat(500)}\r\nhost: x\r\n\r\n`, 500)).toBe(431);
    expect(statusOf(`${'b'.repeat(500)}: x\r\n\r\n`, 500)).toBe(431);
    // The packet ends mid-line: a request target has no white space, a header value may.
    expect(statusOf(target)).toBe(414);
    expect(statusOf('a=1; b=2; '.repeat(50))).toBe(431);
  });

  it('says 431 when node reports no packet', () => {
    expect(headerOverflowStatus(undefined, undefined, MAX_URL)).toBe(431);
    expect(headerOverflowStatus(Buffer.alloc(0), 0, MAX_URL)).toBe(431);
  });

  it('counts header names and values as node does', () => {
    expect(headerBytes(['host', 'x', 'x-junk', 'abc'])).toBe(4 + 1 + 6 + 3);
  });
});
