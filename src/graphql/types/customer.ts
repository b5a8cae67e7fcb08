import { keysetConnection } from '../../shared/pagination/keyset.js';
import { customerPage, loadCustomers } from '../../repositories/organisation.js';
import { builder } from '../builder.js';
import { ANY_KEY, scopedNode } from './access.js';

export const Customer = builder.loadableNode('Customer', {
  description:
    'A customer of the calling key’s company; a timesheet key sees its own customers, or those of its sites, or all when it has neither.',
  ...scopedNode('Customer', ANY_KEY, loadCustomers, (customer) => customer.customerApiId),
  fields: (t) => ({
    customerApiId: t.exposeInt('customerApiId'),
    customerName: t.exposeString('customerName'),
  }),
});

builder.queryField('customers', (t) =>
  t.connection({
    type: Customer,
    authScopes: ANY_KEY,
    description: 'The customers within the calling key’s scope, by customerApiId. A cursor keeps the page size it was issued with.',
    resolve: (_root, args, context) =>
      keysetConnection({
        args,
        list: { kind: 'customer', owner: context.principal.companyId },
        codec: context.services.cursors,
        fetch: (page) => customerPage(context.services.db, context.principal, page),
        keyOf: (c) => c.customerApiId,
      }),
  }),
);
