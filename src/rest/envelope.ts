import { STATUS_CODES } from 'node:http';

/** The response envelope of every REST response (docs/rest-api.md, Envelope). */
export interface Envelope {
  status: { code: number; errorMessage: string };
  data: unknown;
  count: number;
  message: string;
  errors: { code: number; message: string }[];
  nextPageParameter?: string;
  prevPageParameter?: string;
}

export type PageParameters = Pick<Envelope, 'nextPageParameter' | 'prevPageParameter'>;

function countOf(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  return data === null || data === undefined ? 0 : 1;
}

/** A page parameter left undefined is absent from the JSON. */
export function successEnvelope(code: number, data: unknown, page?: PageParameters): Envelope {
  return { status: { code, errorMessage: '' }, data, count: countOf(data), message: STATUS_CODES[code] ?? 'OK', errors: [], ...page };
}

export function failureEnvelope(code: number, messages: string[]): Envelope {
  const list = messages.length > 0 ? messages : [STATUS_CODES[code] ?? 'Error'];
  return {
    status: { code, errorMessage: list[0] ?? 'Error' },
    data: null,
    count: 0,
    message: STATUS_CODES[code] ?? 'Error',
    errors: list.map((message) => ({ code, message })),
  };
}
