import { Center, Loader } from '@mantine/core';

/** Where a library tab's list will be, while it loads ('Loading Liked Songs'). */
export function ListLoader({ label }: { label: string }) {
  return (
    <Center mih={200}>
      <Loader color="ember" aria-label={`Loading ${label}`} />
    </Center>
  );
}
