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
        if (!oldest.done) this.texts.delete(oldest.value);
      }
      operations = new Map();
      this.texts.set(text, operations);
      this.newest = operations;
    }
    operations.set(operationName ?? null, query);
  }
}
