import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';

/**
 * A caller's query that has already been answered in full by yoga's per-operation stage: its
 * text parsed, passed validation with every rule (GraphQL Armor's limits included) and ran
 * compiled without an error. Parsing and validation depend on the text alone (the schema and
 * the rules are fixed), so the same text with the same operation name is valid again and runs
 * the same compiled operation (known-query-lane.ts).
 */
export interface KnownQuery {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  compiled: CompiledQuery;
}

export interface KnownQueriesOptions {
  /** How many texts are kept; the least recently used goes first. */
  maxTexts: number;
}

/** The gateway's bound: as many texts as compiled documents (src/graphql/compiled-documents.ts). */
export const KNOWN_QUERIES: KnownQueriesOptions = { maxTexts: 500 };

/**
 * The known queries, by text and operation name, in a bounded least-recently-used map. A text's
 * operations are told apart by name exactly as sent: an absent name (undefined or null) is
 * another key than the empty string, which graphql-js treats as a name.
 */
export class KnownQueries {
  private readonly texts = new Map<string, Map<string | null, KnownQuery>>();
  /**
   * The held texts as a JSON encoder writes them (JSON.stringify: quotes, escapes, UTF-8), by
   * byte length: a request body that carries one of them is told without parsing it (textAt).
   */
  private readonly encoded = new Map<number, EncodedText[]>();

  constructor(private readonly options: KnownQueriesOptions = KNOWN_QUERIES) {}

  /** Requests the lane answered, and those it handed back to yoga's stage after starting them (refused variables or cost, an error). */
  readonly counts = { answered: 0, handedBack: 0 };

  /** How many texts are held. */
  get size(): number {
    return this.texts.size;
  }

  /** The entry last moved to the end of the map's order: asked for again, it need not move. */
  private newest: Map<string | null, KnownQuery> | undefined;

  find(text: string, operationName: string | null | undefined): KnownQuery | undefined {
    const operations = this.texts.get(text);
    if (!operations) return undefined;
    if (operations !== this.newest) {
      // Most recently used last: re-inserting moves it to the end of the map's order.
      this.texts.delete(text);
      this.texts.set(text, operations);
      this.newest = operations;
    }
    return operations.get(operationName ?? null);
  }

  remember(text: string, operationName: string | null | undefined, query: KnownQuery): void {
    let operations = this.texts.get(text);
    if (!operations) {
      if (this.texts.size >= this.options.maxTexts) {
        const oldest = this.texts.keys().next();
        if (!oldest.done) this.forget(oldest.value);
      }
      operations = new Map();
      this.texts.set(text, operations);
      this.newest = operations;
      const bytes = Buffer.from(JSON.stringify(text));
      const sameLength = this.encoded.get(bytes.length);
      if (sameLength) sameLength.push({ bytes, text });
      else this.encoded.set(bytes.length, [{ bytes, text }]);
    }
    operations.set(operationName ?? null, query);
  }

  /**
   * The held text whose JSON string starts at `start` of `body` (at its opening quote), with the
   * index just past the closing quote; undefined when the string there is not one of them, as
   * a JSON encoder would write it. Compares bytes only: nothing is decoded or hashed.
   */
  textAt(body: Buffer, start: number): { text: string; end: number } | undefined {
    if (body[start] !== QUOTE) return undefined;
    let close = body.indexOf(QUOTE, start + 1);
    while (close !== -1 && escapedAt(body, close)) close = body.indexOf(QUOTE, close + 1);
    if (close === -1) return undefined;
    const end = close + 1;
    const candidates = this.encoded.get(end - start);
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      if (body.compare(candidate.bytes, 0, candidate.bytes.length, start, end) === 0) return { text: candidate.text, end };
    }
    return undefined;
  }

  private forget(text: string): void {
    this.texts.delete(text);
    const length = Buffer.byteLength(JSON.stringify(text));
    const sameLength = this.encoded.get(length)?.filter((candidate) => candidate.text !== text);
    if (sameLength?.length) this.encoded.set(length, sameLength);
    else this.encoded.delete(length);
  }
}

interface EncodedText {
  bytes: Buffer;
  text: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the quote at `index` is escaped: preceded by an odd number of backslashes. */
function escapedAt(body: Buffer, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && body[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}
