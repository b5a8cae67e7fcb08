import { Kind, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import { compilePath } from './route-matcher.js';
import type { RestInput, RestRoute } from './routes.js';

/** The operation a route runs (its document holds exactly one, plus fragments). */
export function operationOf(route: RestRoute): OperationDefinitionNode {
  const operation = route.operation.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error(`route ${route.method} ${route.path}: operation document has no operation`);
  return operation;
}

/**
 * The variables a route's JSON body may set: the operation's variables less those the route binds
 * itself from the path, query string or headers. The adapter refuses any other body field, and the
 * API description lists exactly these.
 */
export function bodyVariables(route: RestRoute): VariableDefinitionNode[] {
  if (route.body !== 'json') return [];
  const params = Object.fromEntries(compilePath(route.path).paramNames.map((name) => [name, '1']));
  const probe: RestInput = { params, query: new Map(), body: undefined, header: () => undefined };
  const routeBound = new Set(Object.keys(route.variables(probe)));
  return (operationOf(route).variableDefinitions ?? []).filter((v) => !routeBound.has(v.variable.name.value));
}
