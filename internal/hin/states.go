package hin

// stateMICs maps the manufacturer codes of State-issued HINs to the
// State's postal code: the 56 States and territories of 33 CFR 175.3, 13 of
// them not the postal code followed by Z.
var stateMICs = map[string]string{
	"AKZ": "AK", "ALZ": "AL", "ARZ": "AR", "ASZ": "AS", "AZZ": "AZ", "CFZ": "CA", "CLZ": "CO",
	"CMZ": "MP", "CTZ": "CT", "DCZ": "DC", "DLZ": "DE", "FLZ": "FL", "GAZ": "GA", "GMZ": "GU",
	"HAZ": "HI", "IAZ": "IA", "IDZ": "ID", "ILZ": "IL", "INZ": "IN", "KAZ": "KS", "KYZ": "KY",
	"LAZ": "LA", "MCZ": "MI", "MDZ": "MD", "MEZ": "ME", "MIZ": "MS", "MNZ": "MN", "MOZ": "MO",
	"MSZ": "MA", "MTZ": "MT", "NBZ": "NE", "NCZ": "NC", "NDZ": "ND", "NHZ": "NH", "NJZ": "NJ",
	"NMZ": "NM", "NVZ": "NV", "NYZ": "NY", "OHZ": "OH", "OKZ": "OK", "ORZ": "OR", "PAZ": "PA",
	"PRZ": "PR", "RIZ": "RI", "SCZ": "SC", "SDZ": "SD", "TNZ": "TN", "TXZ": "TX", "UTZ": "UT",
	"VAZ": "VA", "VIZ": "VI", "VTZ": "VT", "WNZ": "WA", "WSZ": "WI", "WVZ": "WV", "WYZ": "WY",
}

// coastGuardMICs are the codes the US and Canadian Coast Guards issue HINs under.
var coastGuardMICs = map[string]Issuer{
	"USZ": IssuerUSCoastGuard, "HQZ": IssuerUSCoastGuard,
	"ZZZ": IssuerCanadianCoastGuard, "QQQ": IssuerCanadianCoastGuard,
}
