import { Kbd, Modal, Table } from '@mantine/core';

export const SHORTCUTS: readonly { keys: string[]; action: string }[] = [
  { keys: ['Space'], action: 'Play or pause' },
  { keys: ['←', '→'], action: 'Seek back or forward 5 seconds' },
  { keys: ['↑', '↓'], action: 'Volume up or down' },
  { keys: ['M'], action: 'Mute or unmute' },
  { keys: ['S'], action: 'Shuffle on or off' },
  { keys: ['R'], action: 'Repeat: off, all, one' },
  { keys: ['L'], action: 'Like or unlike the current track' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

export interface ShortcutsHelpDialogProps {
  opened: boolean;
  onClose: () => void;
}

export function ShortcutsHelpDialog({ opened, onClose }: ShortcutsHelpDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" centered>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {SHORTCUTS.map(({ keys, action }) => (
            <Table.Tr key={action}>
              <Table.Td>
                {keys.map((key) => (
                  <Kbd key={key} mr={4}>
                    {key}
                  </Kbd>
                ))}
              </Table.Td>
              <Table.Td>{action}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
