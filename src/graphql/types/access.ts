/**
 * Which KeyType may read which records (contract part 5). Types carry these so `node`
 * lookups are guarded; root fields carry them too so the check runs before any load.
 */
export const DEVELOPER_ONLY = { developer: true } as const;
export const TIMESHEET_ONLY = { timesheet: true } as const;
