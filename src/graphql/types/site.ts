import { keysetConnection } from '../../shared/pagination/keyset.js';
import { firstSitesOfCustomers, loadSites, sitePage } from '../../repositories/organisation.js';
import { builder } from '../builder.js';
import { ANY_KEY, scopedNode } from './access.js';
import { Customer } from './customer.js';
import { childConnection } from './first-pages.js';

export const Site = builder.loadableNode('Site', {
  description:
    'A site of a customer of the calling key’s company; a timesheet key sees its own sites, or those of its customers, or all when it has neither.',
  ...scopedNode('Site', ANY_KEY, loadSites, (site) => site.siteApiId),
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
        // The customer id is the filter, as text (the cursor's filter slot).
        list: { kind: 'site', owner: context.principal.companyId, filter: args.customerId == null ? args.customerId : String(args.customerId) },
        codec: context.services.cursors,
        fetch: (page) => sitePage(context.services.db, context.principal, page),
        keyOf: (s) => s.siteApiId,
      }),
  }),
);

const customerSites = childConnection((context, customerIds, size: number) =>
  firstSitesOfCustomers(context.services.db, context.principal, customerIds, size),
);

// The customer was loaded through its scoped loader; its sites are narrowed by the site rule too.
builder.objectField(Customer, 'sites', (t) =>
  t.connection({
    type: Site,
    description: 'The customer’s sites within the calling key’s scope, by siteApiId.',
    resolve: (customer, args, context) =>
      customerSites(context, customer.customerApiId, {
        args,
        list: { kind: 'customer-site', owner: customer.customerApiId, filter: String(customer.customerApiId) },
        keyOf: (s) => s.siteApiId,
        fetch: (page) => sitePage(context.services.db, context.principal, page),
        readWith: (page) => page.size,
      }),
  }),
);
