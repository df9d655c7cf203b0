import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { timingSafeEqual } from 'crypto';
import { Repository } from 'typeorm';
import { generateToken, hashToken } from '../auth/credentials.service';
import { NotFound, ValidationFailed } from '../common/errors';
import { OAuthApplication } from './oauth-application.entity';
import { OAuthApplicationQueries } from './oauth-application.queries';
import { redirectUriProblem } from './redirect-uris';

/** An application as its owner sees it (never the secret's hash). */
export interface ApplicationView {
  id: number;
  name: string;
  clientId: string;
  redirectUris: string[];
}

/** A newly registered application, or one with a new secret: the secret appears here once. */
export interface ApplicationWithSecret extends ApplicationView {
  clientSecret: string;
}

/** What the protocol needs of a client. */
export interface OAuthClient {
  id: number;
  clientId: string;
  name: string;
  redirectUris: string[];
  /** False for a public client: no secret, PKCE required (README "Security"). */
  confidential: boolean;
}

const client = (a: OAuthApplication): OAuthClient => ({
  id: a.id,
  clientId: a.clientId,
  name: a.name,
  redirectUris: a.redirectUris,
  confidential: a.confidential,
});

const view = (a: OAuthApplication): ApplicationView => ({
  id: a.id,
  name: a.name,
  clientId: a.clientId,
  redirectUris: a.redirectUris,
});

/** Whether two SHA-256 hex digests are equal, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * OAuth applications (spec "Authentication" 3; README "OAuth 2.0 applications"): registered by a user with a name
 * and exact redirect URIs; a confidential client whose secret is stored as a SHA-256 hash, shown once, and
 * replaceable (the old one stops working at once).
 */
@Injectable()
export class OAuthApplicationsService {
  constructor(
    @InjectRepository(OAuthApplication) private readonly apps: Repository<OAuthApplication>,
    private readonly queries: OAuthApplicationQueries,
  ) {}

  /**
   * Registers an application for `userId`; `confidential: false` makes a public client (its `clientSecret` is
   * returned empty: it has none to use, and must use PKCE).
   * @throws ValidationFailed `{"name": [...]}` or `{"redirect_uris": [...]}`
   */
  async register(
    userId: number,
    name: string,
    redirectUris: string[],
    confidential = true,
  ): Promise<ApplicationWithSecret> {
    const trimmed = name.trim();
    if (!trimmed) throw ValidationFailed.field('name', 'This field may not be blank.');
    if (trimmed.length > 255) throw ValidationFailed.field('name', 'At most 255 characters.');
    const uris = [...new Set(redirectUris.map((u) => u.trim()).filter((u) => u !== ''))];
    if (uris.length === 0) throw ValidationFailed.field('redirect_uris', 'Give at least one redirect URI.');
    if (uris.length > 20) throw ValidationFailed.field('redirect_uris', 'At most 20 redirect URIs.');
    const problems = uris.map(redirectUriProblem).filter((p): p is string => p !== null);
    if (problems.length > 0) throw new ValidationFailed({ redirect_uris: problems });
    const clientSecret = generateToken();
    const app = await this.apps.save(
      this.apps.create({
        userId,
        name: trimmed,
        clientId: generateToken(40),
        clientSecretHash: hashToken(clientSecret),
        redirectUris: uris,
        confidential,
      }),
    );
    return { ...view(app), clientSecret: confidential ? clientSecret : '' };
  }

  /** The applications `userId` registered, by id. */
  async listOf(userId: number): Promise<ApplicationView[]> {
    return (await this.apps.find({ where: { userId }, order: { id: 'ASC' } })).map(view);
  }

  /**
   * A new client secret for the owner's application; the old secret stops working at once.
   * @throws NotFound when `userId` has no application `id`
   */
  async regenerateSecret(userId: number, id: number): Promise<ApplicationWithSecret> {
    const app = await this.apps.findOneBy({ id, userId });
    if (!app) throw new NotFound();
    const clientSecret = generateToken();
    await this.apps.update({ id }, { clientSecretHash: hashToken(clientSecret) });
    return { ...view(app), clientSecret };
  }

  /**
   * Deletes the owner's application with its codes and tokens (foreign keys cascade).
   * @throws NotFound when `userId` has no application `id`
   */
  async delete(userId: number, id: number): Promise<void> {
    const res = await this.apps.delete({ id, userId });
    if (!res.affected) throw new NotFound();
  }

  /** The client with this `client_id`, or null. */
  async findClient(clientId: string): Promise<OAuthClient | null> {
    const app = await this.apps.findOneBy({ clientId });
    return app ? client(app) : null;
  }

  /** The public client with this `client_id` (authenticated by PKCE instead of a secret), or null. */
  async findPublicClient(clientId: string): Promise<OAuthClient | null> {
    const app = await this.apps.findOneBy({ clientId, confidential: false });
    return app ? client(app) : null;
  }

  /** The client when `clientSecret` is its secret (compared as SHA-256 digests in constant time), else null. */
  async authenticate(clientId: string, clientSecret: string | undefined): Promise<OAuthClient | null> {
    if (!clientSecret) return null;
    const app = await this.apps.findOneBy({ clientId });
    if (!app || !app.confidential || !sameHash(app.clientSecretHash, hashToken(clientSecret))) return null;
    return client(app);
  }

  /** Names of applications by id (the authorized-applications page). */
  async namesOf(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.queries.namesOf(this.apps.manager, ids);
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
