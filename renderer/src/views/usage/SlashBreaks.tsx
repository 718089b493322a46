import { Fragment } from 'react';

/** A `provider/model` name that may wrap after each `/`, so a long catalogue name breaks where it reads. */
export function SlashBreaks({ text }: { text: string }) {
  const parts = text.split('/');
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}
