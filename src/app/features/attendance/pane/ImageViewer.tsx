import { Dialog } from '@/app/ui/Dialog';
import { messages } from '@/shared/messages';
import classes from './pane.module.css';

interface Props {
  image: { url: string; alt: string } | null;
  onClose(): void;
}

/** The image viewer: a message's picture at full size. */
export function ImageViewer({ image, onClose }: Props) {
  return (
    <Dialog
      opened={image !== null}
      onClose={onClose}
      title={image?.alt || messages.paneImageViewer}
      size="auto"
    >
      {image && <img className={classes.viewer} src={image.url} alt={image.alt} />}
    </Dialog>
  );
}
