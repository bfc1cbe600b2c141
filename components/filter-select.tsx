/**
 * One labelled `<select>` of a GET filter form: its value lands in the URL under `name`. With
 * `anyLabel` the first choice is the empty one, which filters nothing.
 */
export function FilterSelect({
  label,
  name,
  value,
  anyLabel,
  options,
}: {
  label: string;
  name: string;
  value: string | undefined;
  anyLabel?: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value ?? ""}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
