// The image viewer (as a phone's photo viewer): full screen and dark, pinch or double-tap to zoom, drag to
// move when zoomed, and a download button.
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { messages } from '@/shared/messages';
import classes from './pane.module.css';

interface Props {
  image: { url: string; alt: string } | null;
  onClose(): void;
}

const MAX_SCALE = 5;
const DOUBLE_TAP_SCALE = 2.5;

/** The image viewer: a message's picture at full size. */
export function ImageViewer({ image, onClose }: Props) {
  return (
    <Dialog
      opened={image !== null}
      onClose={onClose}
      title={image?.alt || messages.image}
      fullScreen
      classNames={{
        content: classes.viewerContent,
        header: classes.viewerHeader,
        body: classes.viewerBody,
        close: classes.viewerClose,
      }}
    >
      {image && <ZoomableImage url={image.url} alt={image.alt} />}
    </Dialog>
  );
}

type View = { scale: number; x: number; y: number };
const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(1, s));

function ZoomableImage({ url, alt }: { url: string; alt: string }) {
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  // The pointers on the picture, and where a pinch or a drag started.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ distance: number; view: View; from: { x: number; y: number } } | null>(null);

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const begin = (from: { x: number; y: number }) => {
    gesture.current = { distance: distance(), view, from };
  };

  return (
    <>
      <div className={classes.viewerStage}>
        <img
          className={classes.viewer}
          src={url}
          alt={alt}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
          onPointerDown={(e) => {
            pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
            begin({ x: e.clientX, y: e.clientY });
          }}
          onPointerMove={(e) => {
            if (!pointers.current.has(e.pointerId)) return;
            pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
            const start = gesture.current;
            if (!start) return;
            if (pointers.current.size >= 2 && start.distance > 0) {
              const scale = clampScale((start.view.scale * distance()) / start.distance);
              setView(scale === 1 ? { scale, x: 0, y: 0 } : { ...start.view, scale });
            } else if (start.view.scale > 1) {
              setView({
                ...start.view,
                x: start.view.x + e.clientX - start.from.x,
                y: start.view.y + e.clientY - start.from.y,
              });
            }
          }}
          onPointerUp={(e) => {
            pointers.current.delete(e.pointerId);
            const [rest] = [...pointers.current.values()];
            gesture.current = null;
            if (rest) begin(rest);
          }}
          onPointerCancel={(e) => {
            pointers.current.delete(e.pointerId);
            gesture.current = null;
          }}
          onDoubleClick={() =>
            setView((v) => (v.scale > 1 ? { scale: 1, x: 0, y: 0 } : { scale: DOUBLE_TAP_SCALE, x: 0, y: 0 }))
          }
          onWheel={(e) => {
            const scale = clampScale(view.scale * (e.deltaY < 0 ? 1.2 : 1 / 1.2));
            setView(scale === 1 ? { scale, x: 0, y: 0 } : { ...view, scale });
          }}
        />
      </div>
      <Button
        component="a"
        href={url}
        download={alt || true}
        variant="white"
        color="dark"
        radius="xl"
        leftSection={<IconDownload size={18} aria-hidden />}
        className={classes.viewerDownload}
      >
        {messages.paneImageDownload}
      </Button>
    </>
  );
}
