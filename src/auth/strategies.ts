import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy as HttpBearerStrategy } from 'passport-http-bearer';
import { Strategy as PassportBaseStrategy } from 'passport-strategy';
import { CredentialsService } from './credentials.service';
import { Principal } from './principal';

type Verify = (token: string, done: (err: unknown, user?: unknown) => void) => void;

/**
 * Passport strategy for `Authorization: Token <secret>` (pretix's team-token scheme). It fails (so that the next
 * strategy is tried) when the header uses another scheme.
 */
export class TokenSchemeStrategy extends PassportBaseStrategy {
  constructor(private readonly verify: Verify) {
    super();
  }

  override authenticate(req: Request): void {
    const header = req.headers.authorization;
    const parts = header ? header.trim().split(/\s+/) : [];
    if (parts.length !== 2 || parts[0].toLowerCase() !== 'token') {
      this.fail('Token', 401);
      return;
    }
    this.verify(parts[1], (err, user) => {
      if (err) this.error(err as Error);
      else if (!user) this.fail('Token', 401);
      else this.success(user);
    });
  }
}

/** `Authorization: Token <team token>`. */
@Injectable()
export class TeamTokenStrategy extends PassportStrategy(TokenSchemeStrategy, 'token') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const principal = await this.credentials.fromTeamToken(token);
    if (!principal) throw new UnauthorizedException('Invalid token.');
    return principal;
  }
}

/** `Authorization: Bearer <OAuth access token or team token>` (passport-http-bearer). */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(HttpBearerStrategy, 'bearer') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    return this.credentials.fromBearer(token);
  }
}
