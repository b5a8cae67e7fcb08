import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The documentation is the API's only reference: its links must lead somewhere, citations in
// code must name a section that exists, and nothing may point at a document outside the repository.

const ROOT = resolve(import.meta.dirname, '../..');
// Generated, installed or ignored trees (see .gitignore): not part of the repository's text.
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'data', 'dist', 'coverage', '.tmp']);
// Spelled in pieces so that this file does not name what it looks for.
const FORBIDDEN = [['shared', 'contract'].join('/'), ['external-api', 'md'].join('.')];

function repositoryFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : repositoryFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

const DOCUMENTS = [
  join(ROOT, 'README.md'),
  join(ROOT, 'bench/README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** The Markdown text outside fenced code blocks, one entry per line (fenced lines become ''). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** The anchor GitHub gives a heading: its text, lower-cased, without punctuation, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

function headingsOf(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const slug = headingSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Every link target in the prose: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => {
    const text = line.replace(/`[^`]*`/g, '');
    const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const definition = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(text)?.[1];
    return definition ? [...inline, definition] : inline;
  });
}

/** Why a link from `document` to `target` does not resolve, or null when it does. */
function brokenLink(document: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = pathPart === '' ? document : resolve(dirname(document), pathPart);
  if (file !== ROOT && !file.startsWith(ROOT + sep)) return 'leads outside the repository';
  if (!existsSync(file)) return `${relative(ROOT, file)} does not exist`;
  if (anchor === null) return null;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? null : `${relative(ROOT, file)} has no heading #${anchor}`;
}

describe('documentation links', () => {
  it('finds the documents and their links', () => {
    expect(DOCUMENTS.every((document) => existsSync(document))).toBe(true);
    expect(DOCUMENTS.flatMap((document) => linkTargets(readFileSync(document, 'utf8'))).length).toBeGreaterThan(20);
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(headingSlug('Security license')).toBe('security-license');
    expect(headingSlug('Refusals: one status per kind')).toBe('refusals-one-status-per-kind');
    expect(headingSlug('`shiftgate import` and `x`')).toBe('shiftgate-import-and-x');
    expect(headingSlug('5 × 5 s rounds')).toBe('5--5-s-rounds');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n')]).toEqual(['a', 'a-1']);
  });

  it.each(DOCUMENTS.map((document) => [relative(ROOT, document), document]))(
    'every relative link and anchor in %s resolves',
    (_name, document) => {
      const broken = linkTargets(readFileSync(document, 'utf8')).flatMap((target) => {
        const reason = brokenLink(document, target);
        return reason ? [`${target}: ${reason}`] : [];
      });
      expect(broken).toEqual([]);
    },
  );

  it('README.md stays short: at most 200 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('citations', () => {
  const files = repositoryFiles();

  it('no file names a document outside the repository', () => {
    expect(files.length).toBeGreaterThan(100);
    const offending = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8').toLowerCase();
      return FORBIDDEN.filter((needle) => text.includes(needle)).map((needle) => `${relative(ROOT, file)}: ${needle}`);
    });
    expect(offending).toEqual([]);
  });

  it('every "docs/NAME.md, Section" citation names a document and a heading that exist', () => {
    const cited = /\b(docs\/[\w-]+\.md), (?:"([^"\n]+)"|([A-Z][^(),"\n]*?)\))/g;
    const missing = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(cited)].flatMap((match) => {
        const document = join(ROOT, match[1]!);
        const section = (match[2] ?? match[3] ?? '').toLowerCase();
        const where = `${relative(ROOT, file)}: ${match[1]}, ${section}`;
        if (!existsSync(document)) return [`${where} (no such document)`];
        const headings = headingsOf(readFileSync(document, 'utf8')).map((h) => headingSlug(h).replace(/-/g, ' '));
        const wanted = headingSlug(section).replace(/-/g, ' ');
        return headings.some((heading) => heading.startsWith(wanted)) ? [] : [`${where} (no such heading)`];
      });
    });
    expect(missing).toEqual([]);
  });
});
