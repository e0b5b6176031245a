/** A file sent with a call (multipart), as the handlers and the simulator's upload read it. */
export interface UploadedFile {
  buffer: Buffer;
  filename: string;
  mimetype: string;
}
