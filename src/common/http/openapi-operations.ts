import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The summary words of pretix's resource verbs (`createQuota` → "Create a quota"); PUT is `update` in pretix's
 * names and replaces the whole object, PATCH is `partialUpdate`.
 */
const RESOURCE_VERBS: Record<string, string> = {
  retrieve: 'Retrieve',
  create: 'Create',
  update: 'Replace',
  partialUpdate: 'Update fields of',
  destroy: 'Delete',
};

/** `OrganizerOrders` → `organizer orders`. */
const words = (s: string): string => s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * The summary of an operation whose code names none, read from its operationId (the controller method name):
 * `listOrganizerOrders` → "List organizer orders", `retrieveQuota` → "Retrieve a quota", `updateQuota` (PUT) →
 * "Replace a quota", `partialUpdateQuota` (PATCH) → "Update fields of a quota", `destroyQuota` → "Delete a
 * quota", `destroyQuotaByAlias` (the spec's singular path) → "Delete a quota (singular path)", other names word
 * by word (`markOrderPaid` → "Mark order paid"). A trailing number (`listSeats2`, the second route of a name)
 * and `WithPatch` (the PATCH form of a POST action) are not read.
 */
export function summaryOf(methodName: string): string {
  const name = methodName.replace(/\d+$/, '').replace(/WithPatch$/, '');
  if (name.endsWith('ByAlias')) return `${summaryOf(name.slice(0, -'ByAlias'.length))} (singular path)`;
  const resource = /^(retrieve|create|partialUpdate|update|destroy)([A-Z].*)$/.exec(name);
  if (resource) {
    const noun = words(resource[2]);
    return `${RESOURCE_VERBS[resource[1]]} ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
  }
  const text = words(name);
  return `${text[0].toUpperCase()}${text.slice(1)}`;
}

/** A method name usable as an operationId (and as a generated client's function name). */
const IDENTIFIER = /^[a-z][A-Za-z0-9]*$/;

/**
 * The `operationIdFactory` of the document build: an operation's id is the name of the controller method serving
 * it (`QuotasController.listQuotas` → `listQuotas`); the SDK and integrators call the operations by these names,
 * so a method's name is part of the API. Fails the build (and so the boot) when two controllers have a method of
 * the same name, or when one method serves several paths (Nest names those `name[0]`, `name[1]`): each
 * operation needs a method, and an id, of its own.
 * @throws Error naming the controllers and the method
 */
export function methodNameOperationIds(): (controllerKey: string, methodKey: string) => string {
  const owners = new Map<string, string>();
  return (controllerKey, methodKey) => {
    if (!IDENTIFIER.test(methodKey)) {
      throw new Error(
        `OpenAPI: ${controllerKey}.${methodKey} is not a plain method name (one method serving several ` +
          'paths?): the operationId is the method name, so give each route a method of its own.',
      );
    }
    const owner = owners.get(methodKey);
    if (owner !== undefined && owner !== controllerKey) {
      throw new Error(
        `OpenAPI: ${owner}.${methodKey} and ${controllerKey}.${methodKey} would both have the operationId ` +
          `"${methodKey}" (operationIds are the controller method names and must be unique): rename one.`,
      );
    }
    owners.set(methodKey, controllerKey);
    return methodKey;
  };
}

/**
 * Completes the operations of the served document: a summary written in the code (`@ApiOperation`, or the
 * method's doc comment through the swagger plugin) is kept when it reads as one (capitalised, at most 80
 * characters); longer text becomes the description and the summary is read from the operationId
 * ({@link summaryOf}). Paths come out sorted.
 * @throws Error when two operations share an operationId (see {@link methodNameOperationIds})
 */
export function nameOperations(document: OpenAPIObject): OpenAPIObject {
  const seen = new Map<string, string>();
  const paths: OpenAPIObject['paths'] = {};
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path];
    const named: Record<string, unknown> = { ...item };
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const id = operation.operationId ?? '';
      const where = `${method.toUpperCase()} ${path}`;
      if (!IDENTIFIER.test(id)) {
        throw new Error(`OpenAPI: ${where} has no method-name operationId ("${id}").`);
      }
      const other = seen.get(id);
      if (other !== undefined) {
        throw new Error(`OpenAPI: ${other} and ${where} share the operationId "${id}".`);
      }
      seen.set(id, where);
      const own = operation.summary;
      const keep = own !== undefined && /^[A-Z]/.test(own) && own.length <= 80;
      const description = operation.description ?? (own !== undefined && !keep ? own : undefined);
      named[method] = {
        ...operation,
        summary: keep ? own : summaryOf(id),
        ...(description !== undefined ? { description } : {}),
      };
    }
    paths[path] = named;
  }
  return { ...document, paths };
}
