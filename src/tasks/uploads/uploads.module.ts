import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks.module';
import { UploadsController } from './uploads.controller';

/** `POST /api/v1/upload` (the `UploadedFiles` service itself is part of {@link TasksModule}). */
@Module({
  imports: [TasksModule],
  controllers: [UploadsController],
})
export class UploadsModule {}
