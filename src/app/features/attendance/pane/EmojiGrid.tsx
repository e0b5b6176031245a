// The composer's emoji picker (desktop: phones have their keyboard's): the emoji people use most in service
// chats, in a grid. No dependency; loaded when the picker first opens.
import { SimpleGrid, UnstyledButton } from '@mantine/core';
import { messages } from '@/shared/messages';

const EMOJI =
  '😀 😃 😄 😁 😆 😅 😂 🤣 😊 🙂 😉 😍 😘 😎 🤩 🥳 🤗 🤔 😐 😕 😢 😭 😡 😱 🙏 👍 👎 👏 🙌 👋 🤝 💪 👌 ✌️ 👀 💬 ❤️ 💚 💙 💛 🔥 ✨ 🎉 🎁 ✅ ❌ ⚠️ ⏰ 📦 🚚 💰 💳 🧾 📞 📍 📅 🛒 🏷️ ⭐ ☀️'.split(
    ' ',
  );

export function EmojiGrid({ onPick }: { onPick(emoji: string): void }) {
  return (
    <SimpleGrid cols={8} spacing={2} verticalSpacing={2} role="group" aria-label={messages.paneEmoji}>
      {EMOJI.map((emoji) => (
        <UnstyledButton
          key={emoji}
          aria-label={emoji}
          onClick={() => onPick(emoji)}
          fz={22}
          ta="center"
          style={{ borderRadius: 'var(--mantine-radius-sm)', lineHeight: '32px' }}
        >
          {emoji}
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
