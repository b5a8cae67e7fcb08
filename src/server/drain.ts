import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes an http.Server without resetting a connection it accepted. node's server.close() destroys
 * every connection that is not inside a request, and that includes connections accepted a moment
 * ago whose request node has not read yet: under load, most of them. So the listener stays open
 * until each accepted connection has delivered its first request (bounded), every answer from the
 * start of the drain says `Connection: close`, and only then is the listener closed.
 */
export class ConnectionDrain {
  private readonly awaitingFirstRequest = new Set<Socket>();
  private readonly unanswered = new Set<ServerResponse>();
  private noneAwaiting: (() => void) | undefined;
  draining = false;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.awaitingFirstRequest.add(socket);
      socket.once('close', () => this.settled(socket));
    });
    // Before the request handler, so the header is set before anything is written.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      this.settled(req.socket);
      if (this.draining) {
        res.setHeader('connection', 'close');
        return;
      }
      this.unanswered.add(res);
      res.once('close', () => this.unanswered.delete(res));
    });
  }

  /**
   * Drains within `timeoutMs`: up to half of it waiting for accepted connections to send their
   * first request, the rest for the requests in flight to be answered; whatever is still open
   * then is cut.
   */
  async close(timeoutMs: number): Promise<void> {
    this.draining = true;
    for (const res of this.unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
    this.unanswered.clear();
    const deadline = Date.now() + timeoutMs;
    if (this.awaitingFirstRequest.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs / 2);
        this.noneAwaiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const force = setTimeout(() => this.server.closeAllConnections(), Math.max(0, deadline - Date.now()));
    await closed;
    clearTimeout(force);
  }

  private settled(socket: Socket): void {
    if (this.awaitingFirstRequest.delete(socket) && this.awaitingFirstRequest.size === 0) this.noneAwaiting?.();
  }
}
