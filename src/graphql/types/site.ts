import DataLoader from 'dataloader';
import { buildConnection, DEFAULT_PAGE_SIZE, keysetConnection, readConnectionArgs } from '../../shared/pagination/keyset.js';
import { firstSitesOfCustomers, loadSites, sitePage, type SiteRecord } from '../../repositories/sites.js';
import type { GraphQLContext } from '../context.js';
import { builder } from '../builder.js';
import { ANY_KEY, scopedNodeLoad } from './access.js';
import { Customer } from './customer.js';

export const DEFAULT_SITE_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const Site = builder.loadableNode('Site', {
  description:
    'A site of a customer of the calling key’s company; a timesheet key sees its own sites, or those of its customers, or all when it has neither.',
  authScopes: ANY_KEY,
  id: { resolve: (site: SiteRecord) => site.siteApiId, parse: (id: string) => Number(id) },
  load: scopedNodeLoad('Site', ANY_KEY, loadSites),
  fields: (t) => ({
    siteApiId: t.exposeInt('siteApiId'),
    siteName: t.exposeString('siteName'),
    // Read with the site in the same statement, so a site list needs no second query for them.
    customerApiId: t.exposeInt('customerApiId'),
    customerName: t.exposeString('customerName'),
    customer: t.field({
      type: Customer,
      nullable: true,
      description: 'The site’s customer; null (NOT_FOUND) when the key’s scope does not reach it.',
      resolve: (site) => site.customerApiId,
    }),
  }),
});

/** A site list's filter is the customer id, as text (the cursor's filter slot). */
function customerFilter(customerId: number | null | undefined): string | null | undefined {
  return customerId === undefined || customerId === null ? customerId : String(customerId);
}

builder.queryField('sites', (t) =>
  t.connection({
    type: Site,
    authScopes: ANY_KEY,
    description:
      'The sites within the calling key’s scope, by siteApiId; customerId keeps one customer’s (none when outside the scope). A cursor keeps the filter and page size it was issued with.',
    args: { customerId: t.arg.int({ description: 'Only this customer’s sites.' }) },
    resolve: (_root, args, context) =>
      keysetConnection({
        args,
        list: {
          kind: 'site',
          owner: context.principal.companyId,
          filter: customerFilter(args.customerId),
          defaultSize: DEFAULT_SITE_PAGE_SIZE,
        },
        codec: context.services.cursors,
        fetch: (page) => sitePage(context.services.db, context.principal, page),
        keyOf: (s) => s.siteApiId,
      }),
  }),
);

/** Per request and page size: the first sites of every customer on a customer page, in one batch. */
const firstSitesLoaders = new WeakMap<GraphQLContext, Map<number, DataLoader<number, SiteRecord[]>>>();

function firstSitesLoader(context: GraphQLContext, size: number): DataLoader<number, SiteRecord[]> {
  let bySize = firstSitesLoaders.get(context);
  if (!bySize) {
    bySize = new Map();
    firstSitesLoaders.set(context, bySize);
  }
  let loader = bySize.get(size);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const sites = await firstSitesOfCustomers(context.services.db, context.principal, ids, size);
      return ids.map((id) => sites.get(id) ?? []);
    });
    bySize.set(size, loader);
  }
  return loader;
}

// The customer was loaded through its scoped loader; its sites are narrowed by the site rule too.
builder.objectField(Customer, 'sites', (t) =>
  t.connection({
    type: Site,
    description: 'The customer’s sites within the calling key’s scope, by siteApiId.',
    resolve: async (customer, args, context) => {
      const list = {
        kind: 'customer-site',
        owner: customer.customerApiId,
        filter: String(customer.customerApiId),
        defaultSize: DEFAULT_SITE_PAGE_SIZE,
      };
      const codec = context.services.cursors;
      const keyOf = (s: SiteRecord) => s.siteApiId;
      const page = readConnectionArgs(args, list, codec);
      if (page.from === null && page.direction === 'forward') {
        // The first page of each customer's sites: batched across the customers of the request.
        const rows = await firstSitesLoader(context, page.size).load(customer.customerApiId);
        return buildConnection([...rows], page, list, keyOf, codec);
      }
      return keysetConnection<SiteRecord>({ args, list, codec, keyOf, fetch: (p) => sitePage(context.services.db, context.principal, p) });
    },
  }),
);
