import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { ResolvedEvent, ResolvedOrganizer } from './credential-resolver';
import type { PermissionSet } from './permissions';
import type { Principal } from './principal';

/**
 * What the guards resolved for the current request. `organizer` and `event` are the organizers context's
 * entities (controllers declare them as `Organizer`/`Event`); auth itself needs only their ids.
 */
export interface RequestAccess {
  principal: Principal;
  organizer?: ResolvedOrganizer;
  event?: ResolvedEvent;
  organizerPermissions?: PermissionSet;
  eventPermissions?: PermissionSet;
}

export interface AuthenticatedRequest extends Request {
  user?: Principal;
  /** Organizer and event of the URL as the credential's statement found them (set by the strategies). */
  resolved?: { organizer: ResolvedOrganizer | null; event: ResolvedEvent | null };
  access?: RequestAccess;
}

function accessOf(ctx: ExecutionContext): RequestAccess {
  const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!req.access) throw new Error('Route has no access context: is it declared @Public()?');
  return req.access;
}

/** The authenticated principal. */
export const CurrentPrincipal = createParamDecorator(
  (_d: unknown, ctx: ExecutionContext) => accessOf(ctx).principal,
);

/** The organizer of the URL (the organizers context's `Organizer`), resolved and access-checked by the guards. */
export const CurrentOrganizer = createParamDecorator((_d: unknown, ctx: ExecutionContext): unknown => {
  const organizer = accessOf(ctx).organizer;
  if (!organizer) throw new Error('Route has no organizer in its path');
  return organizer;
});

/** The event of the URL (the organizers context's `Event`), resolved and access-checked by the guards. */
export const CurrentEvent = createParamDecorator((_d: unknown, ctx: ExecutionContext): unknown => {
  const event = accessOf(ctx).event;
  if (!event) throw new Error('Route has no event in its path');
  return event;
});

/** The whole access context (principal, organizer, event and the resolved permission sets). */
export const CurrentAccess = createParamDecorator((_d: unknown, ctx: ExecutionContext) => accessOf(ctx));
