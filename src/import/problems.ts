import { SECTION_NAMES, type Section } from './format.js';

/** One segment of a JSON path: an object key or an array index. */
export type PathSegment = string | number;

/** More problems than this are summarised in one final line, so a broken 100k-row file stays readable. */
export const MAX_REPORTED_PROBLEMS = 1000;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keySegment(key: string): string {
  // Keys come from the file, so a hostile or garbled key must not flood or break the line.
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return IDENTIFIER.test(shown) ? shown : JSON.stringify(shown);
}

/** `timesheets[3].siteId`; the empty path is `(root)`. */
export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (text === '') text += keySegment(segment);
    else text += IDENTIFIER.test(segment) ? `.${segment}` : `[${keySegment(segment)}]`;
  }
  return text;
}

interface Problem {
  /** The place in the file: the section's place in the format, then the path's indices. */
  at: number[];
  seq: number;
  line: string;
}

function byFileOrder(a: Problem, b: Problem): number {
  for (let i = 0; i < Math.min(a.at.length, b.at.length); i++) if (a.at[i] !== b.at[i]) return a.at[i]! - b.at[i]!;
  return a.at.length - b.at.length || a.seq - b.seq;
}

/**
 * Collects problems from every validation stage and hands them back in file order, whichever stage
 * found them. Only the first `kept` in file order are held, so that a problem in each of a million
 * records does not hold a million lines; the rest are counted.
 */
export class Problems {
  private items: Problem[] = [];
  private seq = 0;
  private dropped = 0;

  /** `lineOf` names the line of the file a section's element is on, where the file has lines. */
  constructor(
    private readonly lineOf?: (section: Section, index: number) => number | undefined,
    private readonly kept = MAX_REPORTED_PROBLEMS,
  ) {}

  add(path: readonly PathSegment[], reason: string): void {
    const [first, second] = path;
    const section = typeof first === 'string' ? SECTION_NAMES.indexOf(first as Section) : -1;
    const fileLine = section >= 0 && typeof second === 'number' ? this.lineOf?.(first as Section, second) : undefined;
    this.items.push({
      at: [section, ...path.filter((segment): segment is number => typeof segment === 'number')],
      seq: this.seq++,
      line: `${fileLine === undefined ? '' : `line ${fileLine}: `}${formatPath(path)}: ${reason}`,
    });
    // Trimmed in batches, so that adding stays cheap.
    if (this.items.length >= 2 * this.kept) this.trim();
  }

  private trim(): void {
    this.items.sort(byFileOrder);
    this.dropped += Math.max(0, this.items.length - this.kept);
    this.items.length = Math.min(this.items.length, this.kept);
  }

  get count(): number {
    return this.items.length + this.dropped;
  }

  /** The first problems in file order, then one line for the rest. */
  lines(): string[] {
    this.trim();
    const shown = this.items.map((p) => p.line);
    if (this.dropped > 0) shown.push(`… and ${this.dropped} more`);
    return shown;
  }
}

/** The import file is invalid; nothing was written. `problems` holds one `path: reason` line each. */
export class ImportValidationError extends Error {
  override name = 'ImportValidationError';

  constructor(
    readonly problems: string[],
    readonly problemCount: number,
  ) {
    super(`import file has ${problemCount} problem${problemCount === 1 ? '' : 's'}`);
  }
}
