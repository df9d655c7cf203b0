import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ACCESS_RULE, AccessRule, PROFILE_SCOPE } from './access.decorators';
import { DEVICE_PROFILE_DENIED, deviceProfileAllows } from './device-security';
import { scopeNeeded } from './permissions';
import { Principal } from './principal';
import type { Request } from 'express';
import { DomainError, NotAuthenticated, PermissionDenied, Refused } from '../common/errors';
import { FailedAuthThrottle, throttled } from './failed-auth-throttle';
import type { AuthenticatedRequest } from './request-context';

export const PERMISSION_DENIED = 'You do not have permission to perform this action.';
export const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';

/**
 * 403 detail for an OAuth access token without the scope the request needs (README "Security", "Scopes and
 * writes").
 */
export const missingScope = (scope: string): string =>
  `The access token does not have the scope this request needs (${scope}).`;

function ruleOf(reflector: Reflector, ctx: ExecutionContext): AccessRule | undefined {
  return reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [ctx.getHandler(), ctx.getClass()]);
}

/** The matched route template (`/api/v1/organizers/:organizer/events/`), the raw path when none matched. */
function routeOf(req: Request): string {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl ?? ''}${pattern}` : req.path;
}

/** Set on a request whose presented credential was refused (not on one that presented none). */
const CREDENTIAL_REFUSED = Symbol('credentialRefused');

/**
 * Global guard 1: authentication. `Token <t>` first, then `Bearer <t>`, then `Device <t>` (architecture.md
 * "Request path" 1).
 * No credentials: 401 "Authentication credentials were not provided."; bad ones: the strategy's 401, or 429 with
 * `Retry-After` once the client address is past its failed-authentication limit ({@link FailedAuthThrottle}).
 */
@Injectable()
export class CredentialGuard extends AuthGuard(['token', 'bearer', 'device']) {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttle: FailedAuthThrottle,
  ) {
    super();
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ruleOf(this.reflector, ctx)?.kind === 'public') return true;
    try {
      return (await super.canActivate(ctx)) as boolean;
    } catch (err) {
      const req = ctx.switchToHttp().getRequest<Request & { [CREDENTIAL_REFUSED]?: boolean }>();
      if (req[CREDENTIAL_REFUSED]) {
        const wait = await this.throttle.failed(req.ip ?? 'unknown');
        if (wait !== null) throw throttled(wait);
      }
      throw err;
    }
  }

  override getAuthenticateOptions() {
    return { session: false };
  }

  override handleRequest<TUser = Principal>(
    err: unknown,
    user: unknown,
    _info: unknown,
    ctx: ExecutionContext,
  ): TUser {
    if (err) {
      // Not a refusal but a failure to check (database down, …): passed on as it is (503 from the filter).
      if (!(err instanceof DomainError) && typeof err === 'object' && 'message' in err) throw err as Error;
      ctx.switchToHttp().getRequest<{ [CREDENTIAL_REFUSED]?: boolean }>()[CREDENTIAL_REFUSED] = true;
      throw err instanceof Error ? err : new NotAuthenticated('Invalid token.');
    }
    if (!user) throw new NotAuthenticated(NOT_AUTHENTICATED);
    return user as TUser;
  }
}

/**
 * Global guard 2: default-deny authorisation (docs/permissions.md). Organizer and event of the slugs were resolved
 * by the credential's statement (no further SQL here); unknown or unreachable ones are 403 like a missing
 * permission (compat §2.2). OAuth credentials also need the scope {@link scopeNeeded} derives from the route's
 * permission and the method: `write` for writes and for routes that need a write permission even on GET, else
 * `read` (`profile` instead of `read` where the route accepts it, `/api/v1/me`): else 403 naming the scope
 * (README "Security", "Scopes and writes"). A device must first pass its security profile (pretix
 * `devicesecurity.py`, {@link deviceProfileAllows}) on the matched route template: else 403 "Request denied by device
 * security profile.", before any permission check.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const rule = ruleOf(this.reflector, ctx);
    if (!rule) throw new PermissionDenied();
    if (rule.kind === 'public') return true;
    const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = req.user;
    if (!(principal instanceof Principal)) throw new NotAuthenticated(NOT_AUTHENTICATED);
    req.access = { principal };
    const device = principal.identity.device;
    if (
      principal.kind === 'device' &&
      device &&
      !deviceProfileAllows(device.securityProfile, req.method, routeOf(req))
    ) {
      throw new Refused(DEVICE_PROFILE_DENIED);
    }

    const deny = () => new PermissionDenied();
    const needed = scopeNeeded(req.method, rule.kind === 'permission' ? rule.anyOf : null);
    const profileOk =
      needed === 'read' &&
      this.reflector.getAllAndOverride<boolean | undefined>(PROFILE_SCOPE, [
        ctx.getHandler(),
        ctx.getClass(),
      ]) === true &&
      principal.hasScope('profile');
    if (!principal.hasScope(needed) && !profileOk) {
      throw new Refused(missingScope(needed));
    }
    if (rule.kind === 'authenticated') return true;

    const orgSlug = req.params.organizer;
    if (typeof orgSlug !== 'string') throw deny();
    const organizer = req.resolved?.organizer;
    if (!organizer || !principal.hasOrganizerAccess(organizer.id)) throw deny();
    req.access.organizer = organizer;
    req.access.organizerPermissions = principal.organizerPermissions(organizer.id);

    const eventSlug = req.params.event;
    const needsEvent =
      rule.kind === 'event' || (rule.kind === 'permission' && rule.anyOf.some((p) => p.startsWith('event')));
    if (typeof eventSlug === 'string') {
      const event = req.resolved?.event;
      if (!event || !principal.canAccessEvent(organizer.id, event.id)) throw deny();
      req.access.event = event;
      req.access.eventPermissions = principal.eventPermissions(organizer.id, event.id);
    } else if (needsEvent) {
      throw deny();
    }

    if (rule.kind === 'permission') {
      const ok = rule.anyOf.some((p) =>
        p.startsWith('organizer.')
          ? req.access!.organizerPermissions!.has(p)
          : (req.access!.eventPermissions?.has(p) ?? false),
      );
      if (!ok) throw deny();
    }
    return true;
  }
}
