import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '../auth/request-context';
import { PermissionDenied } from '../common/errors';

/**
 * The token side of compat §3.7, checked before the body is validated (as pretix checks permissions first): a
 * team token never creates a scheduled export (POST: 403) and needs the settings permission
 * (`event.settings.general:write`, resp. `organizer.settings.general:write`) for everything else (403). Users
 * pass; the service limits a user without that permission to their own exports. Runs after the global guards,
 * which resolved the principal, organizer and event.
 * @throws PermissionDenied
 */
@Injectable()
export class ScheduledExportAccess implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
    const access = req.access;
    if (!access?.organizer) throw new PermissionDenied();
    const principal = access.principal;
    if (principal.kind === 'user') return true;
    if (req.method === 'POST') throw new PermissionDenied();
    const org = access.organizer.id;
    const settings = access.event
      ? principal.eventPermissions(org, access.event.id).has('event.settings.general:write')
      : principal.organizerPermissions(org).has('organizer.settings.general:write');
    if (!settings) throw new PermissionDenied();
    return true;
  }
}
