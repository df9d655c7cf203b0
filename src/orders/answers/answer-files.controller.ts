import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { NoStore } from '../../common/http/no-store';
import { Event } from '../../organizers/event.entity';
import { UPLOAD_TYPES } from '../../tasks/uploads/upload-rules';
import { AnswerFiles } from './answer-files.service';

const BINARY = { schema: { type: 'string', format: 'binary' } };

/**
 * `GET E/orderpositions/{id}/answer/{question}/` (pretix `orderposition-answer`): the file of a file answer, the URL
 * the position's `answers` show for it. 404 for a position that is unknown, canceled or of another event, or an
 * answer that is missing or holds no file.
 */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orderpositions')
export class AnswerFilesController {
  constructor(private readonly files: AnswerFiles) {}

  @NoStore()
  @Get(':id/answer/:question')
  @RequirePermission('event.orders:read')
  @ApiProduces(...Object.keys(UPLOAD_TYPES))
  @ApiOkResponse({
    description: 'The file, as an attachment, with the content type it was uploaded with.',
    content: Object.fromEntries(Object.keys(UPLOAD_TYPES).map((t) => [t, BINARY])),
  })
  @ApiOperation({ summary: 'The file of a file answer' })
  async getAnswerFile(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @IdParam('question') question: number,
  ): Promise<StreamableFile> {
    const file = await this.files.get(event, id, question);
    return new StreamableFile(file.content, {
      type: file.contentType,
      disposition: `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
      length: file.content.length,
    });
  }
}
