import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CREDENTIAL_RESOLVER, CredentialResolver } from '../auth/credential-resolver';
import { devicePrincipal } from '../auth/credentials.service';
import { DEVICE_RESOLVER, DeviceResolver } from '../auth/device-resolver';
import { Principal } from '../auth/principal';
import { UsersService } from '../auth/users.service';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { AsyncTask } from '../tasks/async-task.entity';
import { ExecutesTask, TaskContext, TaskError, TaskExecutor, TaskOutcome } from '../tasks/task-executor';
import { ExporterRegistry } from './exporter-registry';
import { Exporters, RUN_FORBIDDEN } from './exporters.service';
import { recipientsOf } from './scheduled-export.rules';
import { ScheduledExport } from './scheduled-export.entity';

/** Task kind of an export run (queue `exports`). */
export const EXPORT_RUN = 'exports.run';

/**
 * Input of an `exports.run` task: a scheduled export to run and mail (`scheduled_export_id`), or an exporter
 * with its cleaned form data (`identifier`, `form`, `locale`, `timezone`) whose file the task keeps (started by
 * `…/exporters/{id}/run/`, whose download URL carries the random `file`).
 */
export interface ExportRunInput {
  scheduled_export_id?: number;
  identifier?: string;
  form?: Record<string, unknown>;
  locale?: string;
  timezone?: string;
  file?: string;
}

/**
 * `exports.run` (worker only): runs an exporter for the credential that started the task (a scheduled export's
 * owner; a user or a team token for an API run), with the data it may read now (team grants are read at run
 * time), writes the file into storage as it is produced (one
 * transaction: a failed run leaves no file) with the task's expiry, and for a
 * scheduled export mails it as an attachment to the owner and the additional recipients (to, cc and bcc each get
 * their own mail) through the mail outbox (README "Scheduled exports").
 * @throws TaskError when the export is gone, the owner may not run it, or a list it names is gone
 */
@Injectable()
@ExecutesTask(EXPORT_RUN)
export class ExportRunTask implements TaskExecutor {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CREDENTIAL_RESOLVER) private readonly credentials: CredentialResolver,
    @Inject(DEVICE_RESOLVER) private readonly devices: DeviceResolver,
    private readonly users: UsersService,
    private readonly exporters: Exporters,
    private readonly registry: ExporterRegistry,
    private readonly mails: MailOutboxService,
  ) {}

  async run(task: AsyncTask, ctx: TaskContext): Promise<TaskOutcome> {
    if (task.organizerId === null) throw new TaskError('An export needs an organizer.');
    const input = task.input as ExportRunInput;
    const scheduled =
      input.scheduled_export_id === undefined
        ? null
        : await this.db.getRepository(ScheduledExport).findOneBy({ id: input.scheduled_export_id });
    if (input.scheduled_export_id !== undefined && !scheduled)
      throw new TaskError('The scheduled export no longer exists.');
    const principal = scheduled
      ? await this.userPrincipal(scheduled.ownerId)
      : await this.principalOf(task.credentialKind, task.credentialId);
    const file = await this.exporters.run({
      refusal: scheduled ? undefined : RUN_FORBIDDEN,
      principal,
      organizerId: task.organizerId,
      eventId: scheduled ? scheduled.eventId : task.eventId,
      identifier: scheduled?.exportIdentifier ?? input.identifier ?? '',
      form: scheduled?.exportFormData ?? input.form ?? {},
      locale: scheduled?.locale ?? input.locale ?? 'en',
      timezone: scheduled?.timezone ?? input.timezone ?? 'UTC',
    });
    const stored = await ctx.writeFile(
      {
        kind: 'export',
        filename: file.filename,
        contentType: file.contentType,
        organizerId: task.organizerId,
      },
      (out) => file.write(out),
    );
    await ctx.progress(90);
    if (scheduled) await this.mail(scheduled, stored.id, { ...file, size: stored.size });
    return { resultFileId: stored.id, message: 'OK' };
  }

  private async userPrincipal(userId: number): Promise<Principal> {
    return new Principal({ kind: 'user', userId }, await this.credentials.grantsOfUser(userId));
  }

  /**
   * The credential that started an API run, with its grants read now (a deactivated token or revoked device: no
   * grants).
   */
  private async principalOf(kind: string, id: number): Promise<Principal> {
    if (kind === 'user') return this.userPrincipal(id);
    if (kind === 'device') {
      // A device's grant (its events, the device permissions), read now; a revoked device has none.
      const device = await this.devices.deviceById(id);
      if (device && device.initialized && !device.revoked) return devicePrincipal(device);
      return new Principal({ kind: 'device', scopes: null }, []);
    }
    const grant = await this.credentials.grantOfTeamToken(id);
    return new Principal({ kind: 'team_token', tokenId: id, scopes: null }, grant ? [grant] : []);
  }

  private async mail(
    scheduled: ScheduledExport,
    fileId: string,
    file: { filename: string; contentType: string; size: number },
  ): Promise<void> {
    const owner = (await this.users.emailsByIds([scheduled.ownerId])).get(scheduled.ownerId);
    const recipients = [
      ...(owner ? [owner] : []),
      ...recipientsOf(scheduled.mailAdditionalRecipients),
      ...recipientsOf(scheduled.mailAdditionalRecipientsCc),
      ...recipientsOf(scheduled.mailAdditionalRecipientsBcc),
    ];
    const name = this.registry.get(scheduled.exportIdentifier)?.declaration.verboseName;
    const subject = scheduled.mailSubject || `Export: ${name ?? scheduled.exportIdentifier}`;
    await this.db.transaction(async (em) => {
      for (const to of [...new Set(recipients.map((r) => r.toLowerCase()))])
        await this.mails.enqueue(em, {
          organizerId: scheduled.organizerId,
          eventId: scheduled.eventId,
          to,
          subject,
          body: scheduled.mailTemplate || 'Please find the export attached.',
          attachments: [{ fileId, filename: file.filename, contentType: file.contentType, size: file.size }],
        });
    });
  }
}
