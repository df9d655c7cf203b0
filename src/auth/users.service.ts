import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import bcrypt from 'bcryptjs';
import { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { PageRequest, Paginated } from '../common/listing/pagination';
import type { SqlFragment } from '../common/persistence/sql-fragment';
import { User } from './user.entity';
import { UserQueries } from './user.queries';

/** bcrypt hash (cost 10, like real accounts) of a random password nobody knows; see {@link UsersService.verify}. */
const DUMMY_HASH = '$2b$10$afERyTqqLHjvME4ctFBkX.JUaLnJg2.E4VXv6WuRaZep6ODZjJ1AO';

/** User accounts (created by the CLI; OAuth and team invites refer to them). */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly queries: UserQueries,
  ) {}

  /**
   * Creates a user with a bcrypt-hashed password.
   * @throws Error when the e-mail is invalid, the password shorter than 8 characters, or the address taken
   */
  async create(email: string, password: string, fullname: string | null): Promise<User> {
    const normalized = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized)) throw new Error('Enter a valid email address.');
    if (password.length < 8) throw new Error('The password must have at least 8 characters.');
    const taken = await this.queries.emailTaken(this.users.manager, normalized);
    if (taken) throw new Error('A user with this e-mail address already exists.');
    const user = this.users.create({
      email: normalized,
      fullname,
      passwordHash: await bcrypt.hash(password, 10),
    });
    return this.users.save(user);
  }

  /**
   * Checks a password (OAuth login). An unknown or inactive account is checked against a dummy hash of the same
   * cost, so the answer takes as long as for a real account and does not tell whether it exists (README
   * "Security").
   * @returns the user, or null for a wrong password or an unknown account
   */
  async verify(email: string, password: string): Promise<User | null> {
    const user = await this.queries.activeByEmail(this.users.manager, email.trim());
    const matches = await bcrypt.compare(password, user?.passwordHash || DUMMY_HASH);
    return user && matches ? user : null;
  }

  /** The active user with this e-mail address (case-insensitive); null when none. */
  findActiveByEmail(email: string): Promise<User | null> {
    return this.queries.activeByEmail(this.users.manager, email.trim());
  }

  /** @returns null for an unknown id */
  find(id: number): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** E-mail addresses of users by id (unknown ids are absent). One statement. */
  async emailsByIds(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.queries.emailsByIds(this.users.manager, [...new Set(ids)]);
    return new Map(rows.map((u) => [u.id, u.email]));
  }

  /**
   * A page of users (by id) whose row `u` satisfies `condition`, a SQL condition the calling context owns (for
   * example the teams context's `TeamQueries.memberOf()`), in one
   * statement with the total.
   * @throws NotFound "Invalid page." past the last page
   */
  pageWhere(
    em: EntityManager,
    condition: SqlFragment,
    params: ObjectLiteral,
    page: PageRequest,
  ): Promise<Paginated<User>> {
    return this.queries.pageWhere(em, condition, params, page);
  }

  /** The user with id `id` whose row `u` satisfies `condition` (see {@link pageWhere}); null when none. */
  findWhere(
    em: EntityManager,
    id: number,
    condition: SqlFragment,
    params: ObjectLiteral,
  ): Promise<User | null> {
    return this.queries.findWhere(em, id, condition, params);
  }

  /** The user with this e-mail address (case-insensitive), inside `em`'s transaction; null when none. */
  findByEmail(em: EntityManager, email: string): Promise<User | null> {
    return this.queries.byEmail(em, email);
  }
}
