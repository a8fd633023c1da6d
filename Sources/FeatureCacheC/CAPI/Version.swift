// placeholder until the shims exist
