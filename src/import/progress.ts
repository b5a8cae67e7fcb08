/**
 * How far an import has got, for a caller that shows it while a large file runs: every record is
 * first validated, then compared with the stored row and written unless unchanged, a chunk at a
 * time. While records remain to compare, the written stage's total counts each of them as one
 * to write.
 */
export interface ImportProgress {
  stage: 'validated' | 'compared' | 'written';
  /** Records through this stage so far. */
  done: number;
  /** Records that go through this stage in all. */
  total: number;
}

export type ImportProgressSink = (progress: ImportProgress) => void;
