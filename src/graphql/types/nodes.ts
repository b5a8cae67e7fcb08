import { resolveNodes } from '@pothos/plugin-relay';
import { GraphQLError } from 'graphql';
import { badInput } from '../../shared/errors.js';
import { MAX_PAGE_SIZE } from '../../shared/pagination/keyset.js';
import { builder } from '../builder.js';
import { listLengthArgument } from '../cost.js';
import { decodeGlobalId } from '../global-id.js';

function decodeOrError(id: string): { typename: string; id: number } | GraphQLError {
  try {
    const decoded = decodeGlobalId(id);
    // Every node type's id is the record's integer key (decodeGlobalId checked the digits).
    return { typename: decoded.typename, id: Number(decoded.id) };
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
}

builder.queryField('nodes', (t) =>
  t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    args: { ids: t.arg.idList({ required: true }) },
    extensions: listLengthArgument('ids'),
    resolve: async (_root, args, context, info) => {
      // Bounded like a connection page, so one request cannot ask for an unbounded batch.
      if (args.ids.length > MAX_PAGE_SIZE) throw badInput(`nodes takes at most ${MAX_PAGE_SIZE} ids`);
      const decoded = args.ids.map((id) => decodeOrError(String(id)));
      const found = await resolveNodes(
        builder,
        context,
        info,
        decoded.map((d) => (d instanceof GraphQLError ? null : d)),
      );
      // An Error in the list becomes null at its index with its own error at ["nodes", i].
      return decoded.map((d, i) => (d instanceof GraphQLError ? d : found[i]));
    },
  }),
);
