import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { NotAuthenticated } from '../common/errors';
import type { AuthenticatedRequest } from './request-context';

/**
 * Route guard of the device's own routes (`/api/v1/device/update|info|roll|revoke|eventselection`, pretix's
 * device views, which authenticate only `Device` tokens): any other credential is answered 401 "Authentication
 * credentials were not provided." before the body is validated (pretix answers a team token there the same,
 * whatever it sends). Runs after the global guards, which resolved the principal.
 */
@Injectable()
export class DeviceOnlyGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
    if (principal?.kind !== 'device' || !principal.identity.device) throw new NotAuthenticated();
    return true;
  }
}
