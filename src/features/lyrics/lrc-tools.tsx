import { Button, Collapse, FileButton, Group, Stack, Textarea } from '@mantine/core';
import { IconClipboardText, IconDownload, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { parseLrc, type LrcLine } from '@/lib/lrc';

export interface LrcToolsProps {
  /** Lines read from a file or pasted text (never empty). */
  onImport: (lines: LrcLine[]) => void;
  onError: (message: string) => void;
  onExport: () => void;
  canExport: boolean;
}

export const NOTHING_TO_IMPORT = 'No lyric lines found to import.';

/** Import LRC (a .lrc/.txt file, or pasted text) and export the lines as a .lrc download. */
export function LrcTools({ onImport, onError, onExport, canExport }: LrcToolsProps) {
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');

  const importText = (text: string): boolean => {
    const lines = parseLrc(text);
    if (!lines.length) {
      onError(NOTHING_TO_IMPORT);
      return false;
    }
    onImport(lines);
    return true;
  };

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <FileButton
          accept=".lrc,.txt,text/plain"
          onChange={(file) => {
            if (!file) return;
            file.text().then(importText, () => onError('Unable to read the selected file'));
          }}
        >
          {(props) => (
            <Button
              {...props}
              variant="default"
              size="xs"
              leftSection={<IconFileImport size={14} aria-hidden />}
            >
              Import .lrc file
            </Button>
          )}
        </FileButton>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconClipboardText size={14} aria-hidden />}
          aria-expanded={pasting}
          onClick={() => setPasting((v) => !v)}
        >
          Paste LRC
        </Button>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} aria-hidden />}
          disabled={!canExport}
          onClick={onExport}
        >
          Export .lrc
        </Button>
      </Group>
      <Collapse expanded={pasting}>
        <Stack gap="xs">
          <Textarea
            label="LRC or plain text"
            description="One line per lyric, e.g. [00:12.50]First line. Importing replaces the lines below."
            autosize
            minRows={4}
            maxRows={12}
            value={pasted}
            onChange={(e) => setPasted(e.currentTarget.value)}
          />
          <Group gap="xs">
            <Button
              size="xs"
              disabled={!pasted.trim()}
              onClick={() => {
                if (importText(pasted)) {
                  setPasted('');
                  setPasting(false);
                }
              }}
            >
              Import lines
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={() => setPasting(false)}>
              Close
            </Button>
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}
