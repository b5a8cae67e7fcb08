/**
 * How far an import has got, for a caller that shows it while a large file runs: every record is
 * first validated (in bulk), then compared with the stored row, then written unless unchanged.
 */
export interface ImportProgress {
  stage: 'validated' | 'compared' | 'written';
  /** Records through this stage so far. */
  done: number;
  /** Records that go through this stage in all. */
  total: number;
}

export type ImportProgressSink = (progress: ImportProgress) => void;
