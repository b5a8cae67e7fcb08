/** A route path such as `/api/external/staff/:employeeId/licenses`, compiled once. */
export interface CompiledPath {
  path: string;
  pattern: RegExp;
  /** The `:name` parameters, in the order the pattern captures them. */
  paramNames: string[];
}

/** One segment per `:name` parameter; a trailing slash is allowed. */
export function compilePath(path: string): CompiledPath {
  const paramNames: string[] = [];
  const source = path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    paramNames.push(name);
    return '([^/]+)';
  });
  return { path, pattern: new RegExp(`^${source}/?$`), paramNames };
}

/**
 * The route pattern a request path falls under, for metric labels and log lines, so a label never
 * carries a raw id or a probe's path: one of `fixed`, the path of a matching route, or "unmatched".
 */
export function routeLabeler(paths: readonly string[], fixed: readonly string[]): (pathname: string) => string {
  const compiled = [...new Set(paths)].map(compilePath);
  const exact = new Set(fixed);
  return (pathname) => {
    if (exact.has(pathname)) return pathname;
    for (const route of compiled) if (route.pattern.test(pathname)) return route.path;
    return 'unmatched';
  };
}
