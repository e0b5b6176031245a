import { createTheme } from '@mantine/core';
import { labels } from '@/shared/messages';

// Primary colour green (spec 1 §1); pt-BR number formats wherever Mantine formats numbers.
export const theme = createTheme({
  primaryColor: 'green',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  // Transitions off for people (and screenshots) that ask for reduced motion.
  respectReducedMotion: true,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  // pt-BR names for Mantine's own icon buttons.
  components: {
    PasswordInput: {
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': labels.app.showOrHidePassword } },
    },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.app.close } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': labels.app.close } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': labels.app.close } } },
    NumberInput: { defaultProps: { decimalSeparator: ',', thousandSeparator: '.' } },
    NumberFormatter: { defaultProps: { decimalSeparator: ',', thousandSeparator: '.' } },
  },
});

/** The theme colour of the manifest and <meta name="theme-color"> (Mantine green 8). */
export const THEME_COLOR = '#2f9e44';
