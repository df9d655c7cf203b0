/** What one route asked {@link QueryFilters} for: parameter names, ordering fields and expand names it allows. */
export interface RouteReads {
  params: Set<string>;
  ordering: Set<string>;
  expand: Set<string>;
}

/**
 * A log of the query parameters each route reads, keyed `METHOD /path/:pattern` (Express's route pattern).
 * Inactive (and free) in production: a test installs one, calls the routes, and compares what they read with the
 * OpenAPI document (test/documented-filters.e2e-spec.ts), so a filter the document does not describe fails there.
 */
export class FilterReadLog {
  private static current: FilterReadLog | null = null;

  readonly routes = new Map<string, RouteReads>();

  /** The installed log, if a test installed one. */
  static get active(): FilterReadLog | null {
    return FilterReadLog.current;
  }

  /** Starts recording into a fresh log and returns it. */
  static install(): FilterReadLog {
    FilterReadLog.current = new FilterReadLog();
    return FilterReadLog.current;
  }

  /** Stops recording. */
  static uninstall(): void {
    FilterReadLog.current = null;
  }

  /** Notes names of one kind read by a route. */
  record(route: string, kind: keyof RouteReads, names: readonly string[]): void {
    let reads = this.routes.get(route);
    if (!reads) {
      reads = { params: new Set(), ordering: new Set(), expand: new Set() };
      this.routes.set(route, reads);
    }
    for (const name of names) reads[kind].add(name);
  }
}
