import type { Server } from 'node:http';

// Types of child-ipc.js, which is plain JavaScript so the gateway child can run compiled code
// under plain node while the other children share it through tsx.

/** Messages from the orchestrator to a server child (over the fork IPC channel). */
export type ParentMessage = { type: 'stats'; seq: number } | { type: 'stop' };

export interface ServerStats {
  /** process.cpuUsage() of the server process, microseconds. */
  userMicros: number;
  systemMicros: number;
  rssBytes: number;
  /** SQL statements issued so far, counted at the database layer. */
  sqlStatements: number;
  /** Responses the server finished so far: the denominator for statements per request. */
  requestsServed: number;
}

export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'stats'; seq: number; stats: ServerStats }
  | { type: 'failed'; message: string }
  /** A child-specific answer to a request sent with ServerProcess.ask. */
  | { type: 'answer'; seq: number; value: unknown };

/**
 * The child side: listens on an ephemeral loopback port, reports it, answers stats requests,
 * and exits on `stop` (which also lets --cpu-prof write its profile).
 */
export function serveAsChild(server: Server, sqlStatements: () => number, close?: () => Promise<void>): Promise<void>;

/** Reports a startup failure to the parent instead of dying silently. */
export function failChild(error: unknown): never;

/** `--name value` from the child's argv. */
export function argument(name: string): string;
