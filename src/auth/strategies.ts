import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy as HttpBearerStrategy } from 'passport-http-bearer';
import { Strategy as PassportBaseStrategy } from 'passport-strategy';
import { NotAuthenticated } from '../common/errors';
import type { ScopeSlugs } from './credential-resolver';
import { Authenticated, CredentialsService } from './credentials.service';
import { Principal } from './principal';
import type { AuthenticatedRequest } from './request-context';

type Verify = (req: Request, token: string, done: (err: unknown, user?: unknown) => void) => void;

/**
 * Passport strategy for `Authorization: Token <secret>` (pretix's team-token scheme). It fails (so that the next
 * strategy is tried) when the header uses another scheme.
 */
export class TokenSchemeStrategy extends PassportBaseStrategy {
  /** The scheme keyword of the `Authorization` header this strategy reads (case-insensitive). */
  protected readonly keyword: string = 'Token';

  constructor(private readonly verify: Verify) {
    super();
  }

  override authenticate(req: Request): void {
    const header = req.headers.authorization;
    const parts = header ? header.trim().split(/\s+/) : [];
    if (parts.length !== 2 || parts[0].toLowerCase() !== this.keyword.toLowerCase()) {
      this.fail(this.keyword, 401);
      return;
    }
    this.verify(req, parts[1], (err, user) => {
      if (err) this.error(err as Error);
      else if (!user) this.fail(this.keyword, 401);
      else this.success(user);
    });
  }
}

/** Passport strategy for `Authorization: Device <api_token>` (pretix's device scheme); fails on other schemes. */
export class DeviceSchemeStrategy extends TokenSchemeStrategy {
  protected override readonly keyword: string = 'Device';
}

/** The organizer and event slugs of the route (resolved in the credential's statement). */
function scopeOf(req: Request): ScopeSlugs {
  const { organizer, event } = req.params ?? {};
  return {
    organizer: typeof organizer === 'string' ? organizer : undefined,
    event: typeof event === 'string' && typeof organizer === 'string' ? event : undefined,
  };
}

/** Keeps what the credential's statement resolved for the permission guard; returns the principal. */
function remember(req: Request, found: Authenticated): Principal {
  (req as AuthenticatedRequest).resolved = { organizer: found.organizer, event: found.event };
  return found.principal;
}

/** `Authorization: Token <team token>`. */
@Injectable()
export class TeamTokenStrategy extends PassportStrategy(TokenSchemeStrategy, 'token') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(req: Request, token: string): Promise<Principal> {
    const found = await this.credentials.fromTeamToken(token, scopeOf(req));
    if (!found) throw new NotAuthenticated('Invalid token.');
    return remember(req, found);
  }
}

/** `Authorization: Bearer <OAuth access token or team token>` (passport-http-bearer). */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(HttpBearerStrategy, 'bearer') {
  constructor(private readonly credentials: CredentialsService) {
    super({ passReqToCallback: true });
  }

  async validate(req: Request, token: string): Promise<Principal> {
    return remember(req, await this.credentials.fromBearer(token, scopeOf(req)));
  }
}

/**
 * `Authorization: Device <device API token>` (pretix `DeviceTokenAuthentication`): the device's principal with its
 * one grant (its organizer, its events, pretix's device permissions).
 */
@Injectable()
export class DeviceTokenStrategy extends PassportStrategy(DeviceSchemeStrategy, 'device') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(req: Request, token: string): Promise<Principal> {
    return remember(req, await this.credentials.fromDeviceToken(token, scopeOf(req)));
  }
}
