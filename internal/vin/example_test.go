package vin_test

import (
	"errors"
	"fmt"

	"github.com/vds-dev/vds/internal/vin"
)

func ExampleDecode() {
	d, err := vin.Decode(" 1hgcm82633a004352 ")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.VIN, d.WMI, d.Region, d.Country)
	fmt.Println("check digit:", d.CheckDigit.Expected, d.CheckDigit.Valid)
	fmt.Println("model year:", d.ModelYears[0])
	// Output:
	// 1HGCM82633A004352 1HG North America United States
	// check digit: 3 true
	// model year: 2003
}

func ExampleValidate() {
	err := vin.Validate("1HGCM826O3A004352")
	var e *vin.Error
	if errors.As(err, &e) {
		fmt.Println(e.Position, e)
	}
	// Output:
	// 9 character 9 is "O": the letters I, O and Q never appear in a VIN
}
