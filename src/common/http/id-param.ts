import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { NotFound, ParentNotFound } from '../errors';

const INT_MAX = 2147483647;

/**
 * Parses an integer path id (spec "Conventions" 3). Anything but a positive 32-bit integer in plain digits cannot
 * name a row, so it answers 404 `{"detail": "Not found."}` like an unknown id, never 400 or 500.
 * @throws NotFound
 */
export function parseId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) throw new NotFound();
  const id = Number(raw);
  if (id < 1 || id > INT_MAX) throw new NotFound();
  return id;
}

/**
 * `@IdParam('id')`: the integer path parameter `name`, parsed with {@link parseId} from the raw URL segment (a
 * custom decorator, so the global validation pipe does not coerce `1e3` or ` 7` to numbers first). Documented
 * in OpenAPI as an integer path parameter. A parameter named otherwise than `id` (`item`, `question`, `team`,
 * `list`) is the parent of a nested route: a value that cannot name a row answers 403 like an unknown parent
 * ({@link ParentNotFound}, spec "Status codes that apply everywhere").
 */
export const IdParam = (name: string): ParameterDecorator =>
  createParamDecorator(
    (param: string, ctx: ExecutionContext): number => {
      const raw = ctx.switchToHttp().getRequest<Request>().params[param];
      if (param === 'id') return parseId(raw);
      try {
        return parseId(raw);
      } catch {
        throw new ParentNotFound();
      }
    },
    [
      (target, key) => {
        if (key === undefined) return;
        const descriptor = Object.getOwnPropertyDescriptor(target, key);
        if (descriptor) ApiParam({ name, type: 'integer' })(target, key, descriptor);
      },
    ],
  )(name);
