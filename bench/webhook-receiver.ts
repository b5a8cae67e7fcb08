import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { argument, failChild, serveAsChild } from './child-ipc.js';

/** What the receiver saw since the last reset, sent to the orchestrator on request. */
export interface ReceiverReport {
  ids: string[];
  /** Wall-clock arrival of each id, ms since the epoch with sub-ms precision (same clock as the parent). */
  receivedAt: number[];
  badSignatures: number;
  badSample: string | null;
}

export type ReceiverRequest = { type: 'report'; seq: number; reset: boolean };

/**
 * A loopback webhook receiver: verifies every POST's Standard Webhooks signature with the
 * subscriber's secret, records its webhook-id and arrival time, and answers 204. A request
 * that fails verification is counted and answered 400 (the run fails on any).
 */
function main(): void {
  const webhook = new Webhook(argument('secret'));
  let report: ReceiverReport = { ids: [], receivedAt: [], badSignatures: 0, badSample: null };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = performance.timeOrigin + performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        webhook.verify(body, req.headers as Record<string, string>);
        report.ids.push(String(req.headers['webhook-id']));
        report.receivedAt.push(arrived);
        res.writeHead(204).end();
      } catch (error) {
        report.badSignatures++;
        report.badSample ??= `${req.headers['webhook-id']}: ${(error as Error).message}`;
        res.writeHead(400).end();
      }
    });
  });
  process.on('message', (message: ReceiverRequest) => {
    if (message.type !== 'report') return;
    process.send?.({ type: 'answer', seq: message.seq, value: report });
    if (message.reset) report = { ids: [], receivedAt: [], badSignatures: 0, badSample: null };
  });
  serveAsChild(server, () => 0).catch(failChild);
}

main();
