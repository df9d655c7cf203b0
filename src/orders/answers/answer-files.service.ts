import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { NotFound } from '../../common/errors';
import type { Event } from '../../organizers/event.entity';
import { UploadedFiles } from '../../tasks/uploads/uploaded-files.service';
import { AnswerQueries } from './answer.queries';

/** A file answer as its download sends it. */
export interface AnswerFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * The file of a file answer (`GET E/orderpositions/{id}/answer/{question}/`, pretix `OrderPositionViewSet.answer`):
 * the answer from the orders context, its bytes from the file store (`UploadedFiles`).
 */
@Injectable()
export class AnswerFiles {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly answers: AnswerQueries,
    private readonly uploads: UploadedFiles,
  ) {}

  /**
   * The file answering `question` for the event's position `id` (two statements), named as pretix names it:
   * `<EVENT>-<ORDER>-<positionid>-<extension>` (the event slug upper-cased; the extension is what follows the first dot
   * of the uploaded file's name).
   * @throws NotFound for an unknown or canceled position, one of another event, no answer, or an answer without a file
   */
  async get(event: Event, id: number, question: number): Promise<AnswerFile> {
    const row = await this.answers.answerOfPosition(this.em, event.id, id, question);
    if (!row) throw new NotFound();
    const file = await this.uploads.kept(event.organizerId, row.answer);
    if (!file) throw new NotFound();
    const dot = file.filename.indexOf('.');
    const extension = dot >= 0 ? file.filename.slice(dot + 1) : file.filename;
    return {
      filename: `${event.slug.toUpperCase()}-${row.code}-${row.positionid}-${extension}`,
      contentType: file.contentType,
      content: file.content,
    };
  }
}
