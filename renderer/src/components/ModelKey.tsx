import { Fragment } from 'react';

/**
 * A model key (`groq/openai/gpt-oss-120b`) that wraps only after a `/`, never inside a name, so
 * `minimax-m2.7` is never cut at its hyphen; a part too wide for its column ends in an ellipsis, and the
 * whole key is the title.
 */
export function ModelKey({ value, className = '' }: { value: string; className?: string }) {
  const parts = value.split('/');
  return (
    <code className={`model-key ${className}`} title={value}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          <span className="model-key-part">
            {part}
            {i < parts.length - 1 ? '/' : ''}
          </span>
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
