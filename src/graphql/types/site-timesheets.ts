import DataLoader from 'dataloader';
import { buildConnection, filterText, keysetConnection, parseFilterText, readConnectionArgs } from '../../shared/pagination/keyset.js';
import {
  firstTimesheetsOfSites,
  timesheetPage,
  type TimesheetFilter,
  type TimesheetRecord,
} from '../../repositories/timesheets.js';
import type { SiteRecord } from '../../repositories/sites.js';
import type { GraphQLContext } from '../context.js';
import { builder } from '../builder.js';
import { TIMESHEET_ONLY } from './access.js';
import { Site } from './site.js';
import { DEFAULT_TIMESHEET_PAGE_SIZE, FILTER_KEYS, Timesheet, TimesheetFilterInput } from './timesheet.js';

/** Per request, page size and filter: the first timesheets of every site on a site page, in one batch. */
const firstTimesheetsLoaders = new WeakMap<GraphQLContext, Map<string, DataLoader<number, TimesheetRecord[]>>>();

function firstTimesheetsLoader(
  context: GraphQLContext,
  size: number,
  filter: Omit<TimesheetFilter, 'siteId'>,
): DataLoader<number, TimesheetRecord[]> {
  let byShape = firstTimesheetsLoaders.get(context);
  if (!byShape) {
    byShape = new Map();
    firstTimesheetsLoaders.set(context, byShape);
  }
  const shape = JSON.stringify([size, filter]);
  let loader = byShape.get(shape);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const rows = await firstTimesheetsOfSites(context.services.db, context.principal, ids, filter, size);
      return ids.map((id) => rows.get(id) ?? []);
    });
    byShape.set(shape, loader);
  }
  return loader;
}

// The same list as Query.timesheets with the site as one more filter, so the timesheet key's
// scope applies unchanged; the site itself stays readable with a developer key.
builder.objectField(Site, 'timesheets', (t) =>
  t.connection({
    type: Timesheet,
    // Nullable, so a developer key's FORBIDDEN here leaves the site it hangs from readable.
    nullable: true,
    authScopes: TIMESHEET_ONLY,
    description:
      'The site’s timesheet entries the calling key may read (timesheet keys), ordered by timesheetId; the filter narrows them further (a different siteId matches nothing).',
    args: { filter: t.arg({ type: TimesheetFilterInput }) },
    resolve: async (site: SiteRecord, args, context) => {
      const list = {
        kind: 'site-timesheet',
        owner: site.siteApiId,
        filter: filterText({ ...args.filter, siteId: undefined }, FILTER_KEYS),
        defaultSize: DEFAULT_TIMESHEET_PAGE_SIZE,
      };
      const otherSite = args.filter?.siteId != null && args.filter.siteId !== site.siteApiId;
      const codec = context.services.cursors;
      const keyOf = (row: TimesheetRecord) => row.timesheetId;
      const page = readConnectionArgs(args, list, codec);
      const filter = parseFilterText<TimesheetFilter>(page.filter);
      delete filter.siteId;
      if (otherSite) return buildConnection<TimesheetRecord>([], page, list, keyOf, codec);
      if (page.from === null && page.direction === 'forward') {
        // The first page of each site's timesheets: batched across the sites of the request.
        const rows = await firstTimesheetsLoader(context, page.size, filter).load(site.siteApiId);
        return buildConnection([...rows], page, list, keyOf, codec);
      }
      return keysetConnection<TimesheetRecord>({
        args,
        list,
        codec,
        keyOf,
        fetch: (p) =>
          timesheetPage(context.services.db, context.principal, { ...parseFilterText<TimesheetFilter>(p.filter), siteId: site.siteApiId }, p),
      });
    },
  }),
);
