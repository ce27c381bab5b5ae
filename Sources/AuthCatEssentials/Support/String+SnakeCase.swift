extension String {
    /// A Swift case name as a `--json` value: `credentialsRejected` → `credentials_rejected`.
    public var snakeCased: String {
        reduce(into: "") { text, character in
            if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
        }
    }
}
