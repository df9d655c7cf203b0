import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Event } from '../organizers/event.entity';
import type { Organizer } from '../organizers/organizer.entity';
import type { PermissionSet } from './permissions';
import type { Principal } from './principal';

/** What the guards resolved for the current request. */
export interface RequestAccess {
  principal: Principal;
  organizer?: Organizer;
  event?: Event;
  organizerPermissions?: PermissionSet;
  eventPermissions?: PermissionSet;
}

export interface AuthenticatedRequest extends Request {
  user?: Principal;
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

/** The organizer of the URL, loaded and access-checked by the permission guard. */
export const CurrentOrganizer = createParamDecorator((_d: unknown, ctx: ExecutionContext): Organizer => {
  const organizer = accessOf(ctx).organizer;
  if (!organizer) throw new Error('Route has no organizer in its path');
  return organizer;
});

/** The event of the URL, loaded and access-checked by the permission guard. */
export const CurrentEvent = createParamDecorator((_d: unknown, ctx: ExecutionContext): Event => {
  const event = accessOf(ctx).event;
  if (!event) throw new Error('Route has no event in its path');
  return event;
});

/** The whole access context (principal, organizer, event and the resolved permission sets). */
export const CurrentAccess = createParamDecorator((_d: unknown, ctx: ExecutionContext) => accessOf(ctx));
