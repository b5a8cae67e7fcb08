import { SUB_KEY } from './test-app.js';

export interface EventStream {
  /** The `next` payloads, in order (a final error arrives here too, as `{ errors, data }`). */
  messages: any[];
  /** True once the server sent `event: complete`. */
  readonly completed: boolean;
  /** True once the response body ended or failed (the server closed the stream, or `close()`). */
  readonly ended: boolean;
  close(): void;
}

/** Opens a GraphQL subscription over server-sent events on `baseUrl` and collects the `next` payloads. */
export async function openEventStream(baseUrl: string, token: string, query: string): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
      'external-gh-apim-sub-key': SUB_KEY,
    },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  if (!/text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
    throw new Error(`not an event stream: ${res.headers.get('content-type')}`);
  }
  const messages: any[] = [];
  let completed = false;
  let ended = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
          if (frame.includes('event: next') && data) messages.push(JSON.parse(data));
          if (frame.includes('event: complete')) completed = true;
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
    }
  })();
  return {
    messages,
    get completed() {
      return completed;
    },
    get ended() {
      return ended;
    },
    close: () => controller.abort(),
  };
}
